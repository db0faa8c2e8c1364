# Values for the sealed-secrets HelmRelease, from opencenter.services.sealed-secrets.
{{- with .Service }}
# How often a new sealing key is generated ("0" disables renewal).
keyrenewperiod: {{ .KeyRenewPeriod }}
{{- end }}
