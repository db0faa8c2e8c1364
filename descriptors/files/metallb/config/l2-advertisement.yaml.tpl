# Announces every pool of opencenter.services.metallb.ip_pools with ARP/NDP (layer 2 mode).
apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata:
  name: opencenter-l2
  namespace: {{ .Unit.Namespace }}
spec:
  ipAddressPools:
    {{- range .Service.IPPools }}
    - {{ .Name }}
    {{- end }}
