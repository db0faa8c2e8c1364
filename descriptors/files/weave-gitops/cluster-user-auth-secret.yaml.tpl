# The dashboard's admin login: the user of opencenter.services.weave-gitops.admin_user and
# the bcrypt hash of its password (secrets.services.weave-gitops).
apiVersion: v1
kind: Secret
metadata:
  name: cluster-user-auth
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  username: {{ .Service.AdminUser }}
  password: {{ .Secrets.AdminPasswordHash }}
