# Values for the vsphere-csi HelmRelease, from opencenter.services.vsphere-csi.
{{- with .Service }}
global:
  config:
    # csi-vsphere.conf is rendered from the typed config and the vCenter
    # credentials in secrets.services.vsphere-csi, not by the chart.
    existingSecret: vsphere-csi-config
    storageclass:
      enabled: true
      name: {{ .StorageClassName }}
      default: {{ .DefaultStorageClass }}
      expansion: true
      reclaimPolicy: Delete
      volumebindingmode: WaitForFirstConsumer
      {{- with .DatastoreURL }}
      datastoreurl: {{ . }}
      {{- end }}
{{- end }}
