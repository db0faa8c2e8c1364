# Values for the kyverno HelmRelease, from opencenter.services.kyverno.
{{- with .Service }}
{{- with .AdmissionReplicas }}
admissionController:
  replicas: {{ . }}
{{- end }}
{{- with .ExcludedNamespaces }}
config:
  # Namespaces the policies do not apply to, in addition to the chart's resource filters.
  resourceFiltersExcludeNamespaces:
    {{- range . }}
    - {{ . }}
    {{- end }}
{{- end }}
{{- if not (or .AdmissionReplicas .ExcludedNamespaces) }}
{}
{{- end }}
{{- end }}
