# The override Secret the base HelmRelease {{ .Unit.HelmRelease }} reads (valuesFrom, key override.yaml),
# Grafana's admin credentials and the routes through the cluster Gateway.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - grafana-admin-secret.yaml
{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled }}
  {{- if $.Service.GrafanaHostname }}
  - grafana-httproute.yaml
  {{- end }}
  {{- if $.Service.AlertmanagerHostname }}
  - alertmanager-httproute.yaml
  {{- end }}
{{- end }}{{ end }}
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
