# The cluster Gateway of opencenter.services.gateway, served by Envoy Gateway.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  {{- with .OpenCenter.Services.GatewayAPI }}{{ if ne .Namespace $.Unit.Namespace }}
  - namespace.yaml
  {{- end }}{{ end }}
  - gatewayclass.yaml
  - envoyproxy.yaml
  - gateway.yaml
  {{- if .Service.HTTPSRedirect }}
  - https-redirect.yaml
  {{- end }}
