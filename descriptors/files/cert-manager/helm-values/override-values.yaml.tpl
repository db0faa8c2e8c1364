# Values for the cert-manager HelmRelease, from opencenter.services.cert-manager.
crds:
  enabled: true
{{- with .Service }}
{{- if eq (print .DNSProvider) "route53" "designate" "cloudflare" }}
# DNS-01 self-checks go to public resolvers: the cluster's own DNS may be split-horizon.
extraArgs:
  - --dns01-recursive-nameservers-only
  - --dns01-recursive-nameservers=1.1.1.1:53,8.8.8.8:53
{{- end }}
{{- end }}
{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled }}
# The cluster Gateway's listeners get certificates from its cert-manager.io/cluster-issuer
# annotation, and HTTP-01 challenges are answered through it.
config:
  apiVersion: controller.config.cert-manager.io/v1alpha1
  kind: ControllerConfiguration
  enableGatewayAPI: true
{{- end }}{{ end }}
{{- if not .OpenCenter.Services.GatewayAPICRDs }}
# No Gateway API CRDs here (gateway-api is off): the base's enableGatewayAPI would stop
# cert-manager's controller at start.
config:
  enableGatewayAPI: false
{{- end }}
