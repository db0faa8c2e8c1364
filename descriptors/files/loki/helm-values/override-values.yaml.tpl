# Values for the loki HelmRelease, from opencenter.services.loki.
{{- with .Service }}
{{- $storage := print .Storage }}
{{- $secret := default "loki-object-store" .ExistingSecret }}
{{- $filesystem := eq $storage "filesystem" }}
{{- $rf := .Replicas }}{{ if ge .Replicas 3 }}{{ $rf = 3 }}{{ end }}
{{- $endpoint := .Endpoint }}{{ $insecure := false }}
{{- if hasPrefix "https://" $endpoint }}{{ $endpoint = trimPrefix "https://" $endpoint }}
{{- else if hasPrefix "http://" $endpoint }}{{ $endpoint = trimPrefix "http://" $endpoint }}{{ $insecure = true }}{{ end }}
{{- if $filesystem }}
# Logs on a volume: one single-binary pod (the base's simple scalable mode needs object storage).
deploymentMode: SingleBinary
{{- else }}
deploymentMode: SimpleScalable
{{- end }}
loki:
  commonConfig:
    replication_factor: {{ if $filesystem }}1{{ else }}{{ $rf }}{{ end }}
  schemaConfig:
    configs:
      - from: "2024-04-01"
        store: tsdb
        object_store: {{ $storage }}
        schema: v13
        index:
          prefix: loki_index_
          period: 24h
  storage:
    type: {{ $storage }}
    bucketNames:
      {{- if $filesystem }}
      # Unused on a volume, but loki 6.45's chart requires it in every mode
      # (templates/_helpers.tpl, loki.commonStorageConfig; grafana/loki#19655).
      chunks: chunks
      {{- else }}
      chunks: {{ .Bucket }}
      ruler: {{ .Bucket }}
      {{- end }}
    {{- if eq $storage "s3" }}
    s3:
      {{- if $endpoint }}
      endpoint: {{ $endpoint }}
      insecure: {{ $insecure }}
      s3ForcePathStyle: true
      {{- end }}
      region: {{ .Region }}
      # Expanded from the Secret {{ $secret }} (-config.expand-env).
      accessKeyId: ${AWS_ACCESS_KEY_ID}
      secretAccessKey: ${AWS_SECRET_ACCESS_KEY}
    {{- else if eq $storage "swift" }}
    swift:
      auth_url: {{ .Endpoint }}
      auth_version: 3
      region_name: {{ .Region }}
      container_name: {{ .Bucket }}
      # Expanded from the Secret {{ $secret }} (-config.expand-env).
      application_credential_id: ${OS_APPLICATION_CREDENTIAL_ID}
      application_credential_secret: ${OS_APPLICATION_CREDENTIAL_SECRET}
    {{- end }}
  limits_config:
    retention_period: {{ .Retention }}
  compactor:
    retention_enabled: true
    delete_request_store: {{ $storage }}
{{- if not $filesystem }}
global:
  extraArgs:
    - -config.expand-env=true
  extraEnvFrom:
    - secretRef:
        name: {{ $secret }}
{{- end }}
{{- if $filesystem }}
singleBinary:
  replicas: 1
  persistence:
    enabled: true
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
write:
  replicas: 0
read:
  replicas: 0
backend:
  replicas: 0
{{- else }}
write:
  replicas: {{ .Replicas }}
  persistence:
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
read:
  replicas: {{ .Replicas }}
backend:
  replicas: {{ .Replicas }}
  persistence:
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
{{- end }}
{{- end }}
