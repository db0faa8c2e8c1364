{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# The logins the cluster Gateway lets through to the Longhorn UI (secrets.services.longhorn.ui_htpasswd).
apiVersion: v1
kind: Secret
metadata:
  name: longhorn-ui-basic-auth
  namespace: {{ $.Unit.Namespace }}
type: Opaque
stringData:
  .htpasswd: {{ $.Secrets.UIHtpasswd }}
{{- end }}{{ end }}
