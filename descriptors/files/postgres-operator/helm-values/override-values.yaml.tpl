# Values for the postgres-operator HelmRelease, from opencenter.services.postgres-operator.
{{- with .Service }}
configKubernetes:
  {{- with .WatchedNamespaces }}
  watched_namespace: {{ join "," . }}
  {{- else }}
  watched_namespace: "*"
  {{- end }}
configPostgresPodResources:
  default_cpu_request: 100m
  default_memory_request: 100Mi
{{- end }}
