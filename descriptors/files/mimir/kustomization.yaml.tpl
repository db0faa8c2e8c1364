# The override Secret the base HelmRelease {{ .Unit.HelmRelease }} reads (valuesFrom, key override.yaml)
# and, with object storage, the credentials its values read from the Secret mimir-object-store.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
{{- if ne (print .Service.Storage) "filesystem" }}
resources:
  - object-store-secret.yaml
{{- end }}
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
