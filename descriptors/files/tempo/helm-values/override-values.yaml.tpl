# Values for the tempo HelmRelease (tempo-distributed), from opencenter.services.tempo.
{{- with .Service }}
{{- $filesystem := eq (print .Storage) "filesystem" }}
{{- $secret := default "tempo-object-store" .ExistingSecret }}
{{- $rf := .Replicas }}{{ if ge .Replicas 3 }}{{ $rf = 3 }}{{ end }}
{{- $endpoint := .Endpoint }}{{ $insecure := false }}
{{- if hasPrefix "https://" $endpoint }}{{ $endpoint = trimPrefix "https://" $endpoint }}
{{- else if hasPrefix "http://" $endpoint }}{{ $endpoint = trimPrefix "http://" $endpoint }}{{ $insecure = true }}{{ end }}
storage:
  trace:
    {{- if $filesystem }}
    # Trace blocks on the ingesters' volumes (the chart fixes their path).
    backend: local
    {{- else }}
    backend: s3
    s3:
      bucket: {{ .Bucket }}
      {{- if $endpoint }}
      endpoint: {{ $endpoint }}
      insecure: {{ $insecure }}
      forcepathstyle: true
      {{- else }}
      endpoint: {{ print "s3." .Region ".amazonaws.com" }}
      {{- end }}
      region: {{ .Region }}
      # The access keys come from the Secret {{ $secret }} (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).
    {{- end }}
{{- if not $filesystem }}
global:
  extraEnvFrom:
    - secretRef:
        name: {{ $secret }}
{{- end }}
compactor:
  config:
    compaction:
      block_retention: {{ .Retention }}
distributor:
  replicas: {{ .Replicas }}
ingester:
  replicas: {{ .Replicas }}
  {{- if eq .Replicas 2 }}
  # Each trace is on both ingesters and a write needs both (quorum 2), so the
  # chart's budget, replicas less the quorum, would let neither go and a node
  # drain would wait forever. One may go: writes fail, and senders retry,
  # until it is back.
  maxUnavailable: 1
  {{- end }}
  config:
    replication_factor: {{ $rf }}
  persistence:
    enabled: true
    size: {{ .StorageSize }}
    {{- with .StorageClass }}
    storageClass: {{ . }}
    {{- end }}
{{- end }}
