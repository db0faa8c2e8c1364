# cloud.conf of the Cinder CSI driver: opencenter.services.openstack-csi and the
# application credential in secrets.services.openstack-csi.
apiVersion: v1
kind: Secret
metadata:
  name: openstack-csi-cloud-config
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  cloud.conf: |{{/* gcfg */}}
    [Global]
    auth-url={{ .Service.AuthURL }}
    application-credential-id={{ .Secrets.ApplicationCredentialID }}
    application-credential-secret={{ .Secrets.ApplicationCredentialSecret }}
    region={{ .Service.Region }}
