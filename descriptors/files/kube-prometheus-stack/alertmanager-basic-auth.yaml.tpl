{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# The logins the cluster Gateway lets through to Alertmanager (secrets.services.kube-prometheus-stack.alertmanager_htpasswd).
apiVersion: v1
kind: Secret
metadata:
  name: alertmanager-basic-auth
  namespace: {{ $.Unit.Namespace }}
type: Opaque
stringData:
  .htpasswd: {{ $.Secrets.AlertmanagerHtpasswd }}
{{- end }}{{ end }}
