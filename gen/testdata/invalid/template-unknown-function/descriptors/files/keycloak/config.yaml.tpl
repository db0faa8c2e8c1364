apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
data:
  hostname: {{ qoute .Service.Hostname }}
