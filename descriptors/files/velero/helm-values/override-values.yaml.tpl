# Values for the velero HelmRelease, from opencenter.services.velero.
{{- with .Service }}
credentials:
  useSecret: true
  {{- with .ExistingSecret }}
  # The existing Secret {{ . }} (existing_secret), an AWS credentials file under key cloud.
  existingSecret: {{ . }}
  {{- else }}
  # The Secret velero-credentials, from secrets.services.velero.
  existingSecret: velero-credentials
  {{- end }}
# The chart renders the backup storage location only with backupsEnabled, which the base turns off.
backupsEnabled: true
configuration:
  backupStorageLocation:
    - name: default
      # The base installs the aws plugin, which serves any S3-compatible store.
      provider: {{ .Provider }}
      bucket: {{ .Bucket }}
      default: true
      config:
        region: {{ .Region }}
        {{- with .S3URL }}
        s3Url: {{ . }}
        s3ForcePathStyle: "true"
        {{- end }}
  {{- if .SnapshotVolumes }}
  # Volumes are snapshotted with CSI VolumeSnapshots (external-snapshotter), not by a provider plugin.
  features: EnableCSI
  {{- end }}
  volumeSnapshotLocation: []
snapshotsEnabled: {{ .SnapshotVolumes }}
schedules:
  daily:
    disabled: false
    schedule: {{ .Schedule }}
    useOwnerReferencesInBackup: false
    template:
      ttl: {{ .TTL }}
      snapshotVolumes: {{ .SnapshotVolumes }}
      includedNamespaces:
        - "*"
{{- end }}
