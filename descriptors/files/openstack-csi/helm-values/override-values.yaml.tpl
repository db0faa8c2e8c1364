# Values for the openstack-cinder-csi HelmRelease, from opencenter.services.openstack-csi.
clusterID: {{ .OpenCenter.Cluster.ClusterName }}
secret:
  enabled: true
  create: false
  {{- with .Service.ExistingSecret }}
  # cloud.conf is the key cloud.conf of the existing Secret {{ . }} (existing_secret).
  name: {{ . }}
  {{- else }}
  # cloud.conf is rendered from the typed config and the application
  # credential in secrets.services.openstack-csi, not by the chart.
  name: openstack-csi-cloud-config
  {{- end }}
{{- with .Service }}
storageClass:
  # The chart's csi-cinder-sc-delete/-retain classes are replaced by one class named storage_class_name.
  enabled: false
  custom: |-{{/* yaml */}}
    apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata:
      name: {{ .StorageClassName }}
      {{- if .DefaultStorageClass }}
      annotations:
        storageclass.kubernetes.io/is-default-class: "true"
      {{- end }}
    provisioner: cinder.csi.openstack.org
    reclaimPolicy: Delete
    volumeBindingMode: WaitForFirstConsumer
    allowVolumeExpansion: true
    {{- if or .VolumeType .AvailabilityZone }}
    parameters:
      {{- with .VolumeType }}
      type: {{ . }}
      {{- end }}
      {{- with .AvailabilityZone }}
      availability: {{ . }}
      {{- end }}
    {{- end }}
{{- end }}
