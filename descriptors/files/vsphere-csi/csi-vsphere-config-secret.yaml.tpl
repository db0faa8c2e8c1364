# csi-vsphere.conf of the vSphere CSI driver: opencenter.services.vsphere-csi and
# the vCenter credentials in secrets.services.vsphere-csi.
apiVersion: v1
kind: Secret
metadata:
  name: vsphere-csi-config
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  csi-vsphere.conf: |
    [Global]
    cluster-id = {{ quote (default $.OpenCenter.Cluster.ClusterName .Service.ClusterID) }}

    [VirtualCenter {{ quote .Service.VCenterHost }}]
    insecure-flag = {{ quote .Service.InsecureFlag }}
    user = {{ quote .Secrets.Username }}
    password = {{ quote .Secrets.Password }}
    port = {{ quote .Service.Port }}
    datacenters = {{ quote .Service.Datacenter }}
