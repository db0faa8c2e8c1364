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
{{- if default false .RealmImport }}
  - keycloak-realm-import.yaml
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
        {{- /* The base's URL names the database in namespace keycloak. */}}
        db:
          url: jdbc:postgresql://postgres-cluster.{{ $.Unit.Namespace }}.svc.cluster.local:5432/keycloak
        {{- /* The frontend URL of tokens and redirects, always a full URL: the base's
               hostname.backchannelDynamic true makes Keycloak refuse to start on a bare hostname. */}}
        {{- if or .FrontendURL .Hostname }}
        hostname:
          hostname: {{ default (print "https://" .Hostname) .FrontendURL }}
        {{- end }}
        {{- if .GatewayRoute }}
        {{- /* The Gateway terminates TLS and sets X-Forwarded-Proto (Keycloak 26 ignores the base's
               removed proxy=edge option); the HTTPRoute publishes Keycloak, not the operator's Ingress. */}}
        proxy:
          headers: xforwarded
        ingress:
          enabled: false
        {{- end }}
        {{- with .AdminExistingSecret }}
        bootstrapAdmin:
          user:
            secret: {{ . }}
        {{- end }}
{{- end }}
