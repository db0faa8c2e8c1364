# The certificate Harbor serves for opencenter.services.harbor.hostname, issued by
# the ClusterIssuer opencenter.services.harbor.issuer into the Secret harbor-tls.
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: harbor
  namespace: {{ .Unit.Namespace }}
spec:
  secretName: harbor-tls
  dnsNames:
    - {{ .Service.Hostname }}
  issuerRef:
    group: cert-manager.io
    kind: ClusterIssuer
    name: {{ .Service.Issuer }}
