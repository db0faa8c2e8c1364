# The Weave GitOps dashboard, from opencenter.services.weave-gitops.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - helmrepository.yaml
  - cluster-user-auth-secret.yaml
  - helmrelease.yaml
  {{- with .OpenCenter.Services.Gateway }}{{ if and .Enabled $.Service.Hostname }}
  - weave-gitops-httproute.yaml
  {{- end }}{{ end }}
