# The address pools of opencenter.services.metallb.ip_pools.
{{- range .Service.IPPools }}
---
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata:
  name: {{ .Name }}
  namespace: {{ $.Unit.Namespace }}
spec:
  addresses:
    {{- range .Addresses }}
    - {{ . }}
    {{- end }}
  {{- with .AutoAssign }}
  autoAssign: {{ . }}
  {{- end }}
{{- end }}
