{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Headlamp at opencenter.services.headlamp.hostname through the cluster Gateway.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: headlamp
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
  hostnames:
    - {{ $.Service.Hostname }}
  rules:
    - backendRefs:
        - name: headlamp
          port: 80
{{- end }}{{ end }}
