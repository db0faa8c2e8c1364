{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Alertmanager at opencenter.services.kube-prometheus-stack.alertmanager_hostname through the cluster Gateway.
# The Service is named after the Helm release, which helm-controller names observability-kube-prometheus-stack
# (<targetNamespace>-<name>: the base's HelmRelease has no releaseName), cut to 26 characters by the chart.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: alertmanager
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    # HTTPS only: the login sent here must not cross the network in clear text
    # (the gateway unit redirects plain HTTP to this name).
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
      port: 443
  hostnames:
    - {{ $.Service.AlertmanagerHostname }}
  rules:
    - backendRefs:
        - name: observability-kube-prometh-alertmanager
          port: 9093
{{- if eq (print $.Service.AlertmanagerAuth) "basic" }}
---
# Alertmanager takes no login of its own: the Gateway asks for one of the logins in the Secret
# {{ default "alertmanager-basic-auth" $.Service.AlertmanagerHtpasswdExistingSecret }} (key .htpasswd) before it lets a request through the route.
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata:
  name: alertmanager
  namespace: {{ $.Unit.Namespace }}
spec:
  targetRefs:
    - group: gateway.networking.k8s.io
      kind: HTTPRoute
      name: alertmanager
  basicAuth:
    users:
      name: {{ default "alertmanager-basic-auth" $.Service.AlertmanagerHtpasswdExistingSecret }}
{{- end }}
{{- end }}{{ end }}
