# The override Secret the base HelmRelease {{ .Unit.HelmRelease }} reads (valuesFrom, key override.yaml).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
