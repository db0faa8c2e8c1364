# Values for the rbac-manager HelmRelease, from opencenter.services.rbac-manager.
# The role bindings are an RBACDefinition (services/rbac-manager/bindings), applied after the chart.
{}
