{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Alertmanager at opencenter.services.kube-prometheus-stack.alertmanager_hostname through the cluster Gateway.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: alertmanager
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
  hostnames:
    - {{ $.Service.AlertmanagerHostname }}
  rules:
    - backendRefs:
        - name: kube-prometheus-stack-alertmanager
          port: 9093
{{- end }}{{ end }}
