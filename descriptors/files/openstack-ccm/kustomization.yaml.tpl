# The override Secret the base HelmRelease openstack-cloud-controller-manager reads
# (valuesFrom, key override.yaml) and the cloud.conf Secret its values name.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - cloud-config-secret.yaml
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
