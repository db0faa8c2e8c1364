# The Project Calico chart repository.
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: projectcalico
  namespace: {{ .Unit.Namespace }}
spec:
  interval: {{ .OpenCenter.GitOps.Flux.Interval }}
  url: https://docs.tigera.io/calico/charts
