# The override Secret the base HelmRelease {{ .Unit.HelmRelease }} reads (valuesFrom, key override.yaml),
# Harbor's admin and object store credentials and, optionally, its certificate.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - harbor-admin-secret.yaml
  {{- if eq (print .Service.Storage) "s3" }}
  - harbor-object-store-secret.yaml
  {{- end }}
  {{- if .Service.EmitCertificate }}
  - harbor-certificate.yaml
  {{- end }}
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: {{ .Unit.ValuesSecret }}
    files:
      - override.yaml=helm-values/override-values.yaml
