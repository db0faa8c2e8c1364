apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
data:
  {{ if .Service.BackupEnabled }}hostname: {{ else }}# {{ end }}{{ .Service.Hostname }}
