{{- $storage := print .Service.Storage }}
{{- if and (eq $storage "s3") .Secrets.SecretAccessKey -}}
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
{{- else if and (eq $storage "swift") .Secrets.SwiftPassword -}}
# The Swift password of Harbor's registry (secrets.services.harbor), read by
# persistence.imageChartStorage.swift.existingSecret.
apiVersion: v1
kind: Secret
metadata:
  name: harbor-object-store
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  REGISTRY_STORAGE_SWIFT_PASSWORD: {{ .Secrets.SwiftPassword }}
{{- end }}
