{{- if .Service.OIDCEnabled -}}
# Headlamp's OIDC client, read as environment variables (config.oidc.externalSecret);
# the client secret comes from secrets.services.headlamp.
apiVersion: v1
kind: Secret
metadata:
  name: headlamp-oidc
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  OIDC_CLIENT_ID: {{ .Service.OIDCClientID }}
  OIDC_CLIENT_SECRET: {{ .Secrets.OIDCClientSecret }}
  OIDC_ISSUER_URL: {{ .Service.OIDCIssuerURL }}
  OIDC_SCOPES: "openid,profile,email,groups"
  {{- with .Service.Hostname }}
  OIDC_CALLBACK_URL: {{ print "https://" . "/oidc-callback" }}
  {{- end }}
{{- end }}
