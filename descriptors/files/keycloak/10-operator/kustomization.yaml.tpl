apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base/keycloak/10-operator
patches:
  # The base's OperatorGroup names the namespace keycloak: the operator
  # watches the unit's namespace, where the Keycloak CR is.
  - target:
      group: operators.coreos.com
      kind: OperatorGroup
      name: keycloak-operator-group
    patch: |-{{/* yaml */}}
      - op: replace
        path: /spec/targetNamespaces
        value:
          - {{ .Unit.Namespace }}
{{- if not .Service.OperatorManualApproval }}
  # The base's Subscription asks for Manual approval, and OLM then installs nothing,
  # not even the starting version, until someone approves the InstallPlan: Automatic
  # installs it, then follows the channel (operator_manual_approval keeps Manual).
  - target:
      group: operators.coreos.com
      kind: Subscription
      name: keycloak-subscription
    patch: |-{{/* yaml */}}
      - op: replace
        path: /spec/installPlanApproval
        value: Automatic
{{- end }}
