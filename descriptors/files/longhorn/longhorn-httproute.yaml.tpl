{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes the Longhorn UI at opencenter.services.longhorn.hostname through the cluster Gateway.
# The chart (1.11.0, templates/deployment-ui.yaml) names the UI's Service longhorn-frontend, port 80.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: longhorn-ui
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
        - name: longhorn-frontend
          port: 80
{{- if eq (print $.Service.UIAuth) "basic" }}
---
# The Longhorn UI takes no login of its own, and whoever reaches it can delete volumes: the Gateway
# asks for one of the logins in the Secret {{ default "longhorn-ui-basic-auth" $.Service.UIHtpasswdExistingSecret }} (key .htpasswd) before it lets a request through the route.
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata:
  name: longhorn-ui
  namespace: {{ $.Unit.Namespace }}
spec:
  targetRefs:
    - group: gateway.networking.k8s.io
      kind: HTTPRoute
      name: longhorn-ui
  basicAuth:
    users:
      name: {{ default "longhorn-ui-basic-auth" $.Service.UIHtpasswdExistingSecret }}
{{- end }}
{{- end }}{{ end }}
