apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - ../../base/keycloak/server
{{- $svc := .Service }}
{{- if $svc.MaxReplicas }}
  - hpa.yaml
{{- end }}
{{- with .Service }}
{{- if .BackupEnabled }}
  - backup-cronjob.yaml
{{- end }}
patches:
  - patch: |-{{/* yaml */}}
      apiVersion: k8s.keycloak.org/v2alpha1
      kind: Keycloak
      metadata:
        name: keycloak
      spec:
        instances: {{ default 1 .Instances }}
        hostname:
          hostname: {{ .Hostname }}
{{- end }}
