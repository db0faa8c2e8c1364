# The Weave GitOps dashboard, from opencenter.services.weave-gitops.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - helmrepository.yaml
  {{- if not .Service.AdminExistingSecret }}
  - cluster-user-auth-secret.yaml
  {{- end }}
  - helmrelease.yaml
  {{- with .OpenCenter.Services.Gateway }}{{ if and .Enabled $.Service.Hostname }}
  - weave-gitops-httproute.yaml
  {{- end }}{{ end }}
