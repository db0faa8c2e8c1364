{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Grafana at opencenter.services.kube-prometheus-stack.grafana_hostname through the cluster Gateway.
# The Service is the grafana subchart's, named after the Helm release, which helm-controller names
# observability-kube-prometheus-stack (<targetNamespace>-<name>: the base's HelmRelease has no releaseName).
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: grafana
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    # HTTPS only: the login sent here must not cross the network in clear text
    # (the gateway unit redirects plain HTTP to this name).
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
      port: 443
  hostnames:
    - {{ $.Service.GrafanaHostname }}
  rules:
    - backendRefs:
        - name: observability-kube-prometheus-stack-grafana
          port: 80
      # Grafana limits its data source queries itself (dataproxy.timeout, 30 s by
      # default); Envoy's default route timeout (15 s) would cut the slower ones first.
      timeouts:
        request: 0s
{{- end }}{{ end }}
