# The password of Harbor's internal database (secrets.services.harbor), as values the harbor HelmRelease reads after its override.
apiVersion: v1
kind: Secret
metadata:
  name: harbor-database-values
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  values.yaml: |{{/* yaml */}}
    database:
      internal:
        password: {{ .Secrets.DatabasePassword }}
