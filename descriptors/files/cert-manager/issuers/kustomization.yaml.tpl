# The ClusterIssuer of opencenter.services.cert-manager and what its ACME solver needs.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - cluster-issuer.yaml
  {{- $p := print .Service.DNSProvider }}
  {{- if eq $p "cloudflare" }}
  - cloudflare-api-token-secret.yaml
  {{- else if eq $p "route53" }}
  - route53-credentials-secret.yaml
  {{- else if eq $p "designate" }}
  - designate-credentials-secret.yaml
  - designate-webhook.yaml
  {{- end }}
