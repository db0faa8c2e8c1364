# The cert-manager DNS-01 webhook for OpenStack Designate (group acme.syseleven.de),
# authenticated with the Secret {{ default "designate-credentials" .Service.DNSExistingSecret }}.
{{- $flux := .OpenCenter.GitOps.Flux }}
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: designate-certmanager-webhook
  namespace: {{ .Unit.Namespace }}
spec:
  interval: {{ $flux.Interval }}
  url: https://syseleven.github.io/designate-certmanager-webhook/
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: designate-certmanager-webhook
  namespace: {{ .Unit.Namespace }}
spec:
  interval: {{ $flux.Interval }}
  timeout: {{ $flux.Timeout }}
  chart:
    spec:
      chart: designate-certmanager-webhook
      version: "0.7.x"
      sourceRef:
        kind: HelmRepository
        name: designate-certmanager-webhook
  install:
    remediation:
      retries: 3
  values:
    certManager:
      namespace: {{ .Unit.Namespace }}
      serviceAccountName: cert-manager
    credentialsSecret: {{ default "designate-credentials" .Service.DNSExistingSecret }}
