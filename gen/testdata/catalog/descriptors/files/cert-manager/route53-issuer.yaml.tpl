apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata:
  name: {{ .Service.IssuerName }}
spec:
  acme:
    email: {{ .Service.ACMEEmail }}
    server: {{ .Service.ACMEServer }}
    solvers:
      - dns01:
          route53:
            region: {{ .Service.Route53Region }}
