{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Headlamp at opencenter.services.headlamp.hostname through the cluster Gateway.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: headlamp
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    # HTTPS only: the login sent here must not cross the network in clear text
    # (the gateway unit redirects plain HTTP to this name).
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
      port: 443
  hostnames:
    - {{ $.Service.Hostname }}
  rules:
    - backendRefs:
        - name: headlamp
          port: 80
{{- end }}{{ end }}
