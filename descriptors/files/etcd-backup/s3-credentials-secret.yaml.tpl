# The object store credentials of the etcd backup job (secrets.services.etcd-backup).
apiVersion: v1
kind: Secret
metadata:
  name: etcd-backup-s3
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  AWS_ACCESS_KEY_ID: {{ .Secrets.AccessKeyID }}
  AWS_SECRET_ACCESS_KEY: {{ .Secrets.SecretAccessKey }}
