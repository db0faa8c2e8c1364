apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
resources:
  - ../../base/keycloak/20-keycloak
{{- if .Secrets }}{{ if .Secrets.AdminPassword }}
  - keycloak-admin-secret.yaml
{{- end }}{{ end }}
{{- with .Service }}
{{- if .MaxReplicas }}
  - keycloak-hpa.yaml
{{- end }}
{{- if .BackupEnabled }}
  - keycloak-backup-cronjob.yaml
{{- end }}
{{- if .GatewayRoute }}
  - keycloak-httproute.yaml
{{- end }}
patches:
  - target:
      group: k8s.keycloak.org
      kind: Keycloak
    patch: |-{{/* yaml */}}
      apiVersion: k8s.keycloak.org/v2alpha1
      kind: Keycloak
      metadata:
        name: keycloak
      spec:
        instances: {{ .Instances }}
        {{- /* Keycloak's hostname option is the frontend URL of tokens and redirects, a full URL or a hostname. */}}
        {{- if or .FrontendURL .Hostname }}
        hostname:
          hostname: {{ default .Hostname .FrontendURL }}
        {{- end }}
        {{- with .AdminExistingSecret }}
        bootstrapAdmin:
          user:
            secret: {{ . }}
        {{- end }}
{{- end }}
