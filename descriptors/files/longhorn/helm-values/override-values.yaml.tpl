# Values for the longhorn HelmRelease, from opencenter.services.longhorn.
{{- with .Service }}
defaultSettings:
  defaultReplicaCount: {{ .DefaultReplicaCount }}
  defaultDataPath: {{ .DataPath }}
persistence:
  defaultClass: {{ .DefaultStorageClass }}
  defaultClassReplicaCount: {{ .DefaultReplicaCount }}
{{- end }}
