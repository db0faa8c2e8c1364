{{- if eq (print .Service.Storage) "s3" -}}
# Object store credentials of Harbor's registry (secrets.services.harbor), read by
# persistence.imageChartStorage.s3.existingSecret.
apiVersion: v1
kind: Secret
metadata:
  name: harbor-object-store
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  REGISTRY_STORAGE_S3_ACCESSKEY: {{ .Secrets.AccessKeyID }}
  REGISTRY_STORAGE_S3_SECRETKEY: {{ .Secrets.SecretAccessKey }}
{{- end }}
