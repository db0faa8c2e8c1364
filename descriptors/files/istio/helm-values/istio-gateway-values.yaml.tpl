# Values for the istio-gateway HelmRelease (opencenter.services.istio.ingress_gateway),
# exposed with a LoadBalancer Service.
service:
  type: LoadBalancer
