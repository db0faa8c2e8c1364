{{- if eq (print .Service.DNSProvider) "cloudflare" -}}
# The Cloudflare API token of the DNS-01 solver (secrets.services.cert-manager).
apiVersion: v1
kind: Secret
metadata:
  name: cloudflare-api-token
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  api-token: {{ .Secrets.CloudflareAPIToken }}
{{- end }}
