# Values for the vsphere-csi HelmRelease, from opencenter.services.vsphere-csi.
{{- with .Service }}
global:
  config:
    {{- with .ExistingSecret }}
    # csi-vsphere.conf is the key csi-vsphere.conf of the existing Secret {{ . }} (existing_secret).
    existingSecret: {{ . }}
    {{- else }}
    # csi-vsphere.conf is rendered from the typed config and the vCenter
    # credentials in secrets.services.vsphere-csi, not by the chart.
    existingSecret: vsphere-csi-config
    {{- end }}
    storageclass:
      enabled: true
      name: {{ .StorageClassName }}
      default: {{ .DefaultStorageClass }}
      expansion: true
      reclaimpolicy: Delete
      volumebindingmode: WaitForFirstConsumer
      {{- with .DatastoreURL }}
      datastoreurl: {{ . }}
      {{- end }}
{{- end }}
