# How Envoy Gateway runs the proxies of the GatewayClass {{ .Service.GatewayClassName }}: a LoadBalancer Service
{{- if .Service.LoadBalancerIP }} on {{ .Service.LoadBalancerIP }}{{ end }}.
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata:
  name: {{ .Service.Name }}
  namespace: {{ .Unit.Namespace }}
spec:
  provider:
    type: Kubernetes
    kubernetes:
      envoyService:
        type: LoadBalancer
        externalTrafficPolicy: Local
        {{- with .Service.LoadBalancerIP }}
        loadBalancerIP: {{ . }}
        {{- end }}
