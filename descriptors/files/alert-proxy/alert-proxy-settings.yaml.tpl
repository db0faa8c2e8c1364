# alert-proxy's settings, from opencenter.managed_services.alert-proxy: its
# chart reads them from a Secret. None of them is secret.
apiVersion: v1
kind: Secret
metadata:
  name: alert-proxy-settings
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  {{- with .Service }}
  core_account_number: {{ .AccountID }}
  overseer_core_device_id: {{ .OverseerDeviceID }}
  {{- if .AlertmanagerURL }}
  alert_manager_url: {{ .AlertmanagerURL }}
  {{- else }}
  # kube-prometheus-stack's Alertmanager: helm-controller names its release
  # observability-kube-prometheus-stack, which the chart cuts to 26 characters.
  alert_manager_url: http://observability-kube-prometh-alertmanager.observability.svc:9093/api/v2/alerts
  {{- end }}
  http_route_fqdn: {{ default $.OpenCenter.Cluster.BaseDomain .LinksDomain }}
  {{- end }}
