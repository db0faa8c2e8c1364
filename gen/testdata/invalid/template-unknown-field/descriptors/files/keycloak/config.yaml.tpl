apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
  namespace: {{ .Unit.Namespace }}
data:
  hostname: {{ .Service.Hostnme }}
