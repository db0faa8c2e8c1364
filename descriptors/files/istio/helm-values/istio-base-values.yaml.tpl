# Values for the istio-base HelmRelease, from opencenter.services.istio.
{{- with .Service }}
profile: {{ .Profile }}
{{- end }}
