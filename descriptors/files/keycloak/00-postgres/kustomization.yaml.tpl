apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - ../../base/keycloak/00-postgres
{{- with .Secrets }}{{ if .DBPassword }}
  - keycloak-db-credentials-secret.yaml
{{- end }}{{ end }}
patches:
  # Size the keycloak database from opencenter.services.keycloak.
  - target:
      group: acid.zalan.do
      kind: postgresql
    patch: |-{{/* yaml */}}
      apiVersion: acid.zalan.do/v1
      kind: postgresql
      metadata:
        name: postgres-cluster
      spec:
        volume:
          size: {{ .Service.DBStorageSize }}
          {{- with .Service.StorageClass }}
          storageClass: {{ . }}
          {{- end }}
