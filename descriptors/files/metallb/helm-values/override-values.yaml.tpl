# Values for the metallb HelmRelease, from opencenter.services.metallb.
# The address pools and their advertisement are custom resources (services/metallb/config),
# applied once the chart's CRDs and webhook are ready.
{}
