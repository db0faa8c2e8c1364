# The passwords of Harbor's internal database and registry (secrets.services.harbor), as values the harbor HelmRelease reads after its override.
apiVersion: v1
kind: Secret
metadata:
  name: harbor-values-secret
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  values.yaml: |{{/* yaml */}}
    database:
      internal:
        password: {{ .Secrets.DatabasePassword }}
    registry:
      credentials:
        password: {{ .Secrets.RegistryPassword }}
