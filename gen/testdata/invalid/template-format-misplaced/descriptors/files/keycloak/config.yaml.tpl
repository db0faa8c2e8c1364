apiVersion: v1
kind: ConfigMap
metadata:
  name: keycloak {{/* gcfg */}}
