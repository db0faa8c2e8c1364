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
  OS_AUTH_URL: {{ .Service.DesignateAuthURL }}
  OS_AUTH_TYPE: v3applicationcredential
  OS_APPLICATION_CREDENTIAL_ID: {{ .Secrets.DesignateApplicationCredentialID }}
  OS_APPLICATION_CREDENTIAL_SECRET: {{ .Secrets.DesignateApplicationCredentialSecret }}
  {{- with .Service.DesignateRegion }}
  OS_REGION_NAME: {{ . }}
  {{- end }}
{{- end }}
