# Values for the openstack-cloud-controller-manager HelmRelease, from opencenter.services.openstack-ccm.
cluster:
  # Names the Octavia load balancers the CCM creates for this cluster.
  name: {{ .OpenCenter.Cluster.ClusterName }}
secret:
  enabled: true
  create: false
  {{- with .Service.ExistingSecret }}
  # cloud.conf is the key cloud.conf of the existing Secret {{ . }} (existing_secret).
  name: {{ . }}
  {{- else }}
  # cloud.conf is rendered from the typed config and the application
  # credential in secrets.services.openstack-ccm, not by the chart.
  name: openstack-ccm-cloud-config
  {{- end }}
