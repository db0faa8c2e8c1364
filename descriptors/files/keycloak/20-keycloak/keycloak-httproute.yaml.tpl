# Publishes Keycloak through the cluster gateway (opencenter.services.keycloak.gateway_route).
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: keycloak
  namespace: {{ .Unit.Namespace }}
spec:
  {{- with .OpenCenter.Services.Gateway }}
  parentRefs:
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
      {{- if $.Service.HTTPSOnly }}
      {{- /* Its address is https: logins take HTTPS alone, and the gateway unit redirects plain HTTP. */}}
      port: 443
      {{- end }}
  {{- end }}
  hostnames:
    - {{ .Service.Hostname }}
  rules:
    - backendRefs:
        - name: keycloak-service
          port: 8080
