# The GatewayClass of the cluster Gateway, served by Envoy Gateway with the EnvoyProxy {{ .Service.Name }}.
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: {{ .Service.GatewayClassName }}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef:
    group: gateway.envoyproxy.io
    kind: EnvoyProxy
    name: {{ .Service.Name }}
    namespace: {{ .Unit.Namespace }}
