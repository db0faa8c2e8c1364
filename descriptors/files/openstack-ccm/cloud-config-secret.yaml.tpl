# cloud.conf of the OpenStack cloud controller manager: opencenter.services.openstack-ccm
# and the application credential in secrets.services.openstack-ccm.
apiVersion: v1
kind: Secret
metadata:
  name: openstack-ccm-cloud-config
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  cloud.conf: |{{/* gcfg */}}
    [Global]
    auth-url={{ .Service.AuthURL }}
    application-credential-id={{ .Secrets.ApplicationCredentialID }}
    application-credential-secret={{ .Secrets.ApplicationCredentialSecret }}
    region={{ .Service.Region }}

    [LoadBalancer]
    lb-provider={{ .Service.LBProvider }}
    {{- if eq (print .Service.LBProvider) "ovn" }}
    lb-method=SOURCE_IP_PORT
    {{- end }}
    {{- with .Service.FloatingNetworkID }}
    floating-network-id={{ . }}
    {{- end }}
    {{- with .Service.SubnetID }}
    subnet-id={{ . }}
    {{- end }}
    create-monitor=true
