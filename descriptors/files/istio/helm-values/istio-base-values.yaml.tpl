# Values for the istio-base HelmRelease, from opencenter.services.istio.
{{- with .Service }}
{{- if ne (print .Profile) "default" }}
profile: {{ .Profile }}
{{- else }}
# Profile default: the chart's own values (it has no profile file of that name).
{{- end }}
{{- end }}
