apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
patches:
  - patch: |-
      kind: Keycloak
      spec:
        hostname: {{ .Service.Hostname }}
