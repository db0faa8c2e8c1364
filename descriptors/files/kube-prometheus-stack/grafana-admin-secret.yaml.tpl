# Grafana's admin credentials (secrets.services.kube-prometheus-stack), read by grafana.admin.existingSecret.
apiVersion: v1
kind: Secret
metadata:
  name: grafana-admin
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  admin-user: admin
  admin-password: {{ .Secrets.GrafanaAdminPassword }}
