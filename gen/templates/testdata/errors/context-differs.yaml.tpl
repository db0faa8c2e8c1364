apiVersion: v1
kind: ConfigMap
data:
  {{ if .Service.BackupEnabled }}hostname: {{ else }}# {{ end }}{{ .Service.Hostname }}
