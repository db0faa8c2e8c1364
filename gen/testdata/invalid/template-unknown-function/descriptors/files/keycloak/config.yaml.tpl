apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
data:
  hostname: {{ uppr .Service.Hostname }}
