{{- if eq (print .Service.DNSProvider) "route53" -}}
# The AWS access key of the Route 53 DNS-01 solver (secrets.services.cert-manager).
apiVersion: v1
kind: Secret
metadata:
  name: route53-credentials
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  access-key-id: {{ .Secrets.Route53AccessKeyID }}
  secret-access-key: {{ .Secrets.Route53SecretAccessKey }}
{{- end }}
