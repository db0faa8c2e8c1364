apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak-team
  namespace: {{ .Unit.Namespace }}
data:
{{- range $k, $v := .OpenCenter.Meta.Labels }}
  {{ $k }}: {{ $v }}
{{- end }}
