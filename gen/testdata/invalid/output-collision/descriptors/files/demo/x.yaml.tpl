kind: ConfigMap
metadata:
  name: {{ .Unit.Name }}
