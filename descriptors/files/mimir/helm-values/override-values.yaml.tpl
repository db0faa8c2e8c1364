# Values for the mimir HelmRelease (mimir-distributed), from opencenter.services.mimir.
{{- with .Service }}
{{- $storage := print .Storage }}
{{- $secret := default "mimir-object-store" .ExistingSecret }}
{{- $filesystem := eq $storage "filesystem" }}
{{- $rf := .Replicas }}{{ if ge .Replicas 3 }}{{ $rf = 3 }}{{ end }}
{{- $endpoint := .Endpoint }}{{ $insecure := false }}
{{- if hasPrefix "https://" $endpoint }}{{ $endpoint = trimPrefix "https://" $endpoint }}
{{- else if hasPrefix "http://" $endpoint }}{{ $endpoint = trimPrefix "http://" $endpoint }}{{ $insecure = true }}{{ end }}
mimir:
  structuredConfig:
    {{- if eq $storage "s3" }}
    common:
      storage:
        backend: s3
        s3:
          {{- if $endpoint }}
          endpoint: {{ $endpoint }}
          insecure: {{ $insecure }}
          {{- else }}
          endpoint: {{ print "s3." .Region ".amazonaws.com" }}
          {{- end }}
          region: {{ .Region }}
          # Expanded from the Secret {{ $secret }} (-config.expand-env).
          access_key_id: ${AWS_ACCESS_KEY_ID}
          secret_access_key: ${AWS_SECRET_ACCESS_KEY}
    blocks_storage:
      storage_prefix: blocks
      s3:
        bucket_name: {{ .Bucket }}
    alertmanager_storage:
      storage_prefix: alertmanager
      s3:
        bucket_name: {{ .Bucket }}
    ruler_storage:
      storage_prefix: ruler
      s3:
        bucket_name: {{ .Bucket }}
    {{- else if eq $storage "swift" }}
    common:
      storage:
        backend: swift
        swift:
          auth_url: {{ .Endpoint }}
          auth_version: 3
          region_name: {{ .Region }}
          # Expanded from the Secret {{ $secret }} (-config.expand-env).
          application_credential_id: ${OS_APPLICATION_CREDENTIAL_ID}
          application_credential_secret: ${OS_APPLICATION_CREDENTIAL_SECRET}
    blocks_storage:
      storage_prefix: blocks
      swift:
        container_name: {{ .Bucket }}
    alertmanager_storage:
      storage_prefix: alertmanager
      swift:
        container_name: {{ .Bucket }}
    ruler_storage:
      storage_prefix: ruler
      swift:
        container_name: {{ .Bucket }}
    {{- end }}
    ingester:
      ring:
        replication_factor: {{ $rf }}
    store_gateway:
      sharding_ring:
        replication_factor: {{ $rf }}
    limits:
      compactor_blocks_retention_period: {{ .Retention }}
{{- if $filesystem }}
# Blocks on volumes: the chart's bundled MinIO serves the S3 API from a persistent volume.
minio:
  enabled: true
  persistence:
    enabled: true
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
{{- else }}
minio:
  enabled: false
global:
  extraEnvFrom:
    - secretRef:
        name: {{ $secret }}
{{- end }}
ingester:
  replicas: {{ .Replicas }}
  {{- if lt .Replicas 3 }}
  zoneAwareReplication:
    enabled: false
  {{- end }}
  persistentVolume:
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
store_gateway:
  replicas: {{ .Replicas }}
  {{- if lt .Replicas 3 }}
  zoneAwareReplication:
    enabled: false
  {{- end }}
  persistentVolume:
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
compactor:
  persistentVolume:
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
{{- end }}
