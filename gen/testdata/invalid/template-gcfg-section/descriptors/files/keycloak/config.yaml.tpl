apiVersion: v1
kind: Secret
metadata:
  name: keycloak
stringData:
  keycloak.conf: |{{/* gcfg */}}
    [realm {{ .Service.Realm }} main]
    hostname = {{ .Service.Hostname }}
