# The root password of the MinIO that keeps Mimir's blocks (secrets.services.mimir), as values the mimir HelmRelease reads after its override.
apiVersion: v1
kind: Secret
metadata:
  name: mimir-values-secret
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  values.yaml: |{{/* yaml */}}
    minio:
      rootPassword: {{ .Secrets.MinIORootPassword }}
