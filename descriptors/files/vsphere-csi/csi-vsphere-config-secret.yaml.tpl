# csi-vsphere.conf of the vSphere CSI driver: opencenter.services.vsphere-csi and
# the vCenter credentials in secrets.services.vsphere-csi.
apiVersion: v1
kind: Secret
metadata:
  name: vsphere-csi-config
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  csi-vsphere.conf: |{{/* gcfg */}}
    [Global]
    cluster-id = {{ default $.OpenCenter.Cluster.ClusterName .Service.ClusterID }}

    [VirtualCenter {{ .Service.VCenterHost }}]
    insecure-flag = {{ .Service.InsecureFlag }}
    user = {{ .Secrets.Username }}
    password = {{ .Secrets.Password }}
    port = {{ .Service.Port }}
    datacenters = {{ .Service.Datacenter }}
