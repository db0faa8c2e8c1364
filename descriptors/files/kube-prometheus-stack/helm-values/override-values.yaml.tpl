# Values for the kube-prometheus-stack HelmRelease, from opencenter.services.kube-prometheus-stack.
{{- with .Service }}
prometheus:
  prometheusSpec:
    retention: {{ .PrometheusRetention }}
    {{- with .PrometheusReplicas }}
    replicas: {{ . }}
    {{- end }}
    storageSpec:
      volumeClaimTemplate:
        spec:
          {{- with .StorageClass }}
          storageClassName: {{ . }}
          {{- end }}
          accessModes: [ReadWriteOnce]
          resources:
            requests:
              storage: {{ .PrometheusStorageSize }}
    {{- with .RemoteWriteURL }}
    remoteWrite:
      - url: {{ . }}
    {{- end }}
alertmanager:
  alertmanagerSpec:
    {{- with .AlertmanagerHostname }}
    externalUrl: {{ print "https://" . }}
    {{- end }}
    storage:
      volumeClaimTemplate:
        spec:
          {{- with .StorageClass }}
          storageClassName: {{ . }}
          {{- end }}
          accessModes: [ReadWriteOnce]
          resources:
            requests:
              storage: 10Gi
grafana:
  admin:
    # The Secret grafana-admin, from secrets.services.kube-prometheus-stack.
    existingSecret: grafana-admin
    userKey: admin-user
    passwordKey: admin-password
  persistence:
    enabled: true
    size: {{ .GrafanaStorageSize }}
    {{- with .StorageClass }}
    storageClassName: {{ . }}
    {{- end }}
  {{- with .GrafanaHostname }}
  grafana.ini:
    server:
      root_url: {{ print "https://" . }}
  {{- end }}
{{- end }}
