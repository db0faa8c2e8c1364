{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Grafana at opencenter.services.kube-prometheus-stack.grafana_hostname through the cluster Gateway.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: grafana
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
  hostnames:
    - {{ $.Service.GrafanaHostname }}
  rules:
    - backendRefs:
        - name: kube-prometheus-stack-grafana
          port: 80
{{- end }}{{ end }}
