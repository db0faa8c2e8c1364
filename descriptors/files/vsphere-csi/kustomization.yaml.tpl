# The override Secret the base HelmRelease vsphere-csi reads (valuesFrom, key
# override.yaml) and the csi-vsphere.conf Secret its values name.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - csi-vsphere-config-secret.yaml
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
