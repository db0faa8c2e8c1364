# The key Harbor encrypts the credentials it stores with (secrets.services.harbor), read by existingSecretSecretKey.
apiVersion: v1
kind: Secret
metadata:
  name: harbor-secret-key
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  secretKey: {{ .Secrets.SecretKey }}
