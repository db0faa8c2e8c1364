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
