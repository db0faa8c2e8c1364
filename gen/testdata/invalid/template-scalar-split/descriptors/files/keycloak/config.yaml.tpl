apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Service.Realm }}{{ if .Service.BackupEnabled }}-backup{{ end }}
