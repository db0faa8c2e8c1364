# Initial admin credentials of Keycloak, from secrets.services.keycloak.
apiVersion: v1
kind: Secret
metadata:
  name: keycloak-initial-admin
  namespace: {{ .Unit.Namespace }}
type: kubernetes.io/basic-auth
stringData:
  username: admin
  password: {{ .Secrets.AdminPassword }}
