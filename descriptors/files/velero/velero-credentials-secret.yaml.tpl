# Velero's object store credentials (secrets.services.velero), an AWS credentials
# file read by credentials.existingSecret (key cloud).
apiVersion: v1
kind: Secret
metadata:
  name: velero-credentials
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  cloud: |{{/* ini */}}
    [default]
    aws_access_key_id={{ .Secrets.AccessKeyID }}
    aws_secret_access_key={{ .Secrets.SecretAccessKey }}
