# The ClusterIssuer of opencenter.services.cert-manager and what its ACME solver needs.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - cluster-issuer.yaml
  {{- $p := print .Service.DNSProvider }}
  {{- $own := not .Service.DNSExistingSecret }}
  {{- if and (eq $p "cloudflare") $own }}
  - cloudflare-api-token-secret.yaml
  {{- else if and (eq $p "route53") $own }}
  - route53-credentials-secret.yaml
  {{- else if and (eq $p "designate") $own }}
  - designate-credentials-secret.yaml
  {{- end }}
  {{- if eq $p "designate" }}
  - designate-webhook.yaml
  {{- end }}
