# The Weave GitOps chart, an OCI artifact.
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: weave-gitops
  namespace: {{ .Unit.Namespace }}
spec:
  type: oci
  interval: {{ .OpenCenter.GitOps.Flux.Interval }}
  url: oci://ghcr.io/weaveworks/charts
