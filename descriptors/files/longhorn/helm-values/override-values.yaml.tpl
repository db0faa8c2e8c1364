# Values for the longhorn HelmRelease, from opencenter.services.longhorn.
{{- with .Service }}
defaultSettings:
  defaultReplicaCount: {{ .DefaultReplicaCount }}
  defaultDataPath: {{ quote .DataPath }}
persistence:
  defaultClass: {{ .DefaultStorageClass }}
  defaultClassReplicaCount: {{ .DefaultReplicaCount }}
{{- end }}
