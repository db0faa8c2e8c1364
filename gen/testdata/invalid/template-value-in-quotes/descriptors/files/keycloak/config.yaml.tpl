apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak
data:
  hostname: "https://{{ .Service.Hostname }}"
