apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
data:
  hosts: [{{ .Service.Hostname }}]
