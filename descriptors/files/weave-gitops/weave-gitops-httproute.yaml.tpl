{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes the dashboard at opencenter.services.weave-gitops.hostname through the cluster Gateway.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: weave-gitops
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
        - name: weave-gitops
          port: 9001
{{- end }}{{ end }}
