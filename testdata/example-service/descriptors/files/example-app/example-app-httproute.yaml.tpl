{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes example-app at opencenter.services.example-app.hostname through the cluster Gateway.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: example-app
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    # HTTPS only: the admin login must not cross the network in clear text
    # (the gateway unit redirects plain HTTP to this name).
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
      port: 443
  hostnames:
    - {{ $.Service.Hostname }}
  rules:
    - backendRefs:
        - name: example-app
          port: 80
{{- end }}{{ end }}
