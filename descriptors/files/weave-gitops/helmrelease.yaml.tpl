# The Weave GitOps dashboard (opencenter.services.weave-gitops).
{{- $flux := .OpenCenter.GitOps.Flux }}
{{- with .Service }}
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: weave-gitops
  namespace: {{ $.Unit.Namespace }}
spec:
  interval: {{ $flux.Interval }}
  timeout: {{ $flux.Timeout }}
  chart:
    spec:
      chart: weave-gitops
      version: "4.0.x"
      sourceRef:
        kind: HelmRepository
        name: weave-gitops
  install:
    remediation:
      retries: 3
  values:
    adminUser:
      # RBAC for the admin user; its login is the Secret cluster-user-auth, not created by the chart.
      create: true
      createSecret: false
      username: {{ .AdminUser }}
{{- end }}
