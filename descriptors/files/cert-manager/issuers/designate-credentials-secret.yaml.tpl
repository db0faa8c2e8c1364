{{- if eq (print .Service.DNSProvider) "designate" -}}
# The OpenStack application credential of the Designate DNS-01 webhook
# (secrets.services.cert-manager), read as environment variables.
apiVersion: v1
kind: Secret
metadata:
  name: designate-credentials
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  OS_AUTH_URL: {{ quote .Service.DesignateAuthURL }}
  OS_AUTH_TYPE: v3applicationcredential
  OS_APPLICATION_CREDENTIAL_ID: {{ quote .Secrets.DesignateApplicationCredentialID }}
  OS_APPLICATION_CREDENTIAL_SECRET: {{ quote .Secrets.DesignateApplicationCredentialSecret }}
  {{- with .Service.DesignateRegion }}
  OS_REGION_NAME: {{ quote . }}
  {{- end }}
{{- end }}
