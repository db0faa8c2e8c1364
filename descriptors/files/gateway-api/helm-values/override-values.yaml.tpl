# Values for the envoy-gateway-api HelmRelease, from opencenter.services.gateway-api.
# gateway-api has only the common fields: the base values apply as they are.
{}
