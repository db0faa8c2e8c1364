apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
data:
  hostname: {{ quote .Service.Hostname }}
