# The tigera-operator and the cluster's Calico Installation (opencenter.services.calico).
{{- $flux := .OpenCenter.GitOps.Flux }}
{{- with .Service }}
{{- $encap := print .Encapsulation }}
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: calico
  namespace: {{ $.Unit.Namespace }}
spec:
  interval: {{ $flux.Interval }}
  timeout: {{ $flux.Timeout }}
  releaseName: calico
  chart:
    spec:
      chart: tigera-operator
      version: "~3.29.0"
      sourceRef:
        kind: HelmRepository
        name: projectcalico
  install:
    crds: CreateReplace
    remediation:
      retries: 3
  upgrade:
    crds: CreateReplace
  values:
    installation:
      enabled: true
      cni:
        type: Calico
      calicoNetwork:
        # VXLAN needs no BGP; IP-in-IP and unencapsulated routing distribute routes with BGP.
        bgp: {{ if eq $encap "VXLAN" "VXLANCrossSubnet" }}Disabled{{ else }}Enabled{{ end }}
        {{- with .MTU }}
        mtu: {{ . }}
        {{- end }}
        ipPools:
          - name: default-ipv4-ippool
            cidr: {{ .PodCIDR }}
            blockSize: {{ .BlockSize }}
            encapsulation: {{ $encap }}
            natOutgoing: Enabled
            nodeSelector: all()
{{- end }}
