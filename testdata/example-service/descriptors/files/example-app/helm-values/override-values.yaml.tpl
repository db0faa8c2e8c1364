# Values for the example-app HelmRelease, from opencenter.services.example-app.
{{- with .Service }}
replicaCount: {{ .Replicas }}
ui:
  theme: {{ .Theme }}
admin:
  existingSecret: {{ default "example-app-admin" .AdminExistingSecret }}
{{- end }}
