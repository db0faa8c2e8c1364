# The password of Keycloak's database user (secrets.services.keycloak.db_password), in the
# Secret the postgres operator sets the keycloak role's password from and the Keycloak CR
# reads (the operator takes an existing Secret's password instead of generating one).
apiVersion: v1
kind: Secret
metadata:
  name: keycloak.postgres-cluster.credentials.postgresql.acid.zalan.do
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  username: keycloak
  password: {{ .Secrets.DBPassword }}
