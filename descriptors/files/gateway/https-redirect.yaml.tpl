{{- with .Service.HTTPSRedirect -}}
# Plain HTTP to the login pages published on the Gateway (Grafana, Alertmanager,
# Headlamp, Weave GitOps, Harbor, Keycloak) is sent to HTTPS before any login is
# typed: their routes attach to port 443 alone. cert-manager's HTTP-01 challenge
# routes match an exact path, which Envoy Gateway orders before this route's "/".
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: {{ $.Service.Name }}-https-redirect
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    {{- range .Ports }}
    - name: {{ $.Service.Name }}
      port: {{ . }}
    {{- end }}
  hostnames:
    {{- range .Hostnames }}
    - {{ . }}
    {{- end }}
  rules:
    - filters:
        - type: RequestRedirect
          requestRedirect:
            scheme: https
            statusCode: 301
{{- end }}
