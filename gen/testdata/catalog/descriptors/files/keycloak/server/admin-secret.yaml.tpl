apiVersion: v1
kind: Secret
metadata:
  name: keycloak-initial-admin
  namespace: {{ .Unit.Namespace }}
stringData:
  username: admin
  password: {{ .Secrets.AdminPassword }}
