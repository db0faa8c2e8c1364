# Values for the kyverno HelmRelease, from opencenter.services.kyverno.
{{- with .Service }}
{{- with .AdmissionReplicas }}
admissionController:
  # The base's values scale these pods with a HorizontalPodAutoscaler (3 to
  # 10), and the chart ignores replicas under it: off, so the count holds.
  autoscaling:
    enabled: false
  replicas: {{ . }}
  # The base's budget keeps 2 of these pods up, which fewer than 3 never
  # satisfy, so a node drain would wait forever: one at a time may go.
  podDisruptionBudget:
    minAvailable: null
    maxUnavailable: 1
{{- end }}
{{- with .ExcludedNamespaces }}
config:
  # Namespaces the policies do not apply to: the chart adds a resource filter
  # [*/*,<namespace>,*] for each (resourceFiltersExcludeNamespaces would instead
  # remove the chart's own filters of those namespaces).
  resourceFiltersIncludeNamespaces:
    {{- range . }}
    - {{ . }}
    {{- end }}
{{- end }}
# The base's values give these controllers, one pod each, a budget that keeps
# one up, so no node holding one could be drained. Off, as in the chart: it
# comes back by itself above one pod.
backgroundController:
  podDisruptionBudget:
    enabled: false
cleanupController:
  podDisruptionBudget:
    enabled: false
reportsController:
  podDisruptionBudget:
    enabled: false
{{- end }}
