# The initial password of Harbor's admin user (secrets.services.harbor), read by existingSecretAdminPassword.
apiVersion: v1
kind: Secret
metadata:
  name: harbor-admin
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  HARBOR_ADMIN_PASSWORD: {{ .Secrets.AdminPassword }}
