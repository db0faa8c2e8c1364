# Values for the alert-proxy HelmRelease, from opencenter.managed_services.alert-proxy.
{{- with .Service }}
config:
  cluster: {{ $.OpenCenter.Cluster.ClusterName }}
  {{- with .ReceiverURL }}
  receiverURL: {{ . }}
  {{- end }}
  {{- with .AccountID }}
  accountID: {{ . }}
  {{- end }}
  environment: {{ default $.OpenCenter.Meta.Env .Environment }}
  {{- with .ExtraLabels }}
  extraLabels:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .ExistingSecret }}
  # The tokens come from the existing Secret {{ . }} (existing_secret).
  tokenSecretRef: {{ . }}
  {{- else }}
  # The tokens come from the Secret alert-proxy-tokens (secrets.managed_services.alert-proxy).
  tokenSecretRef: alert-proxy-tokens
  {{- end }}
{{- end }}
