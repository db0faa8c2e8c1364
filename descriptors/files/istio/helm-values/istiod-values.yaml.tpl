# Values for the istiod HelmRelease, from opencenter.services.istio.
{{- with .Service }}
profile: {{ .Profile }}
{{- end }}
