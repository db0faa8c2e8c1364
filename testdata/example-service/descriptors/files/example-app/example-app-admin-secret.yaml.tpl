{{- if not .Service.AdminExistingSecret -}}
# The admin password of example-app, from secrets.services.example-app.
apiVersion: v1
kind: Secret
metadata:
  name: example-app-admin
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  password: {{ .Secrets.AdminPassword }}
{{- end }}
