# The override Secret the base HelmRelease {{ .Unit.HelmRelease }} reads (valuesFrom, key override.yaml),
# Headlamp's OIDC client and its route through the cluster Gateway.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
{{- $route := false }}
{{- with .OpenCenter.Services.Gateway }}{{ if and .Enabled $.Service.Hostname }}{{ $route = true }}{{ end }}{{ end }}
{{- if or .Service.OIDCEnabled $route }}
resources:
  {{- if .Service.OIDCEnabled }}
  - headlamp-oidc-secret.yaml
  {{- end }}
  {{- if $route }}
  - headlamp-httproute.yaml
  {{- end }}
{{- end }}
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
