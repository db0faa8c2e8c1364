# Values for the kyverno HelmRelease, from opencenter.services.kyverno.
{{- with .Service }}
{{- with .AdmissionReplicas }}
admissionController:
  replicas: {{ . }}
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
{{- if not (or .AdmissionReplicas .ExcludedNamespaces) }}
{}
{{- end }}
{{- end }}
