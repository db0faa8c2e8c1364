# Values for the kube-prometheus-stack HelmRelease, from opencenter.services.kube-prometheus-stack.
{{- $password := false }}{{ with .Secrets }}{{ if .GrafanaAdminPassword }}{{ $password = true }}{{ end }}{{ end }}
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
  # The base's warning_alerts_receiver posts to Microsoft Teams at an empty
  # webhook_url, and Alertmanager refuses a configuration holding it: the
  # operator then creates no Alertmanager. These receivers replace the base's;
  # one without an integration keeps its alerts in Alertmanager's UI and API.
  config:
    receivers:
      - name: "null"
      - name: warning_alerts_receiver
        {{- with $.OpenCenter.ManagedServices.AlertProxy }}{{ if .Enabled }}
        # alert-proxy opens a Rackspace Core ticket for each: its chart's Service is named
        # after the release rackspace-alert-proxy, and its app takes alerts at /alert/process.
        webhook_configs:
          - url: http://rackspace-alert-proxy.rackspace.svc/alert/process
            send_resolved: true
        {{- end }}{{ end }}
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
  {{- if .GrafanaExistingSecret }}
  admin:
    # The existing Secret grafana_existing_secret.
    existingSecret: {{ .GrafanaExistingSecret }}
    userKey: admin-user
    passwordKey: admin-password
  {{- else if $password }}
  admin:
    # The Secret grafana-admin, from secrets.services.kube-prometheus-stack.
    existingSecret: grafana-admin
    userKey: admin-user
    passwordKey: admin-password
  {{- else }}
  # No password given: the Grafana chart generates one into its own Secret (key
  # admin-password); kube-prometheus-stack's default, prom-operator, is public.
  adminPassword: ""
  {{- end }}
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
