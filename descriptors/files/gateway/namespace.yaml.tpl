{{- with .OpenCenter.Services.GatewayAPI }}{{ if ne .Namespace $.Unit.Namespace -}}
# The Gateway's own namespace (gateway-api's namespace {{ .Namespace }} belongs to gateway-api-base).
apiVersion: v1
kind: Namespace
metadata:
  name: {{ $.Unit.Namespace }}
{{- end }}{{ end }}
