# Values for the opentelemetry-kube-stack HelmRelease, from opencenter.services.opentelemetry-kube-stack.
clusterName: {{ .OpenCenter.Cluster.ClusterName }}
# The Prometheus Operator's CRDs are kube-prometheus-stack's, at its operator's version.
# This chart's copies are older (0.74), and both releases replace their CRDs (CreateReplace):
# each would put its own back at every release, the older pruning the newer fields.
crds:
  installPrometheus: false
{{- if not .OpenCenter.Services.CertManagerCRDs }}
# No cert-manager here: the operator's webhook certificate, which the chart
# asks cert-manager for by default, is made by Helm instead. Helm makes it anew
# only when the release is upgraded, and the webhooks fail open: a certificate
# that expired would silently stop the operator's defaulting and injection.
opentelemetry-operator:
  admissionWebhooks:
    certManager:
      enabled: false
    autoGenerateCert:
      enabled: true
      certPeriodDays: 3650
{{- end }}
{{- with .Service }}
collectors:
  daemon:
    presets:
      logsCollection:
        enabled: {{ default false .CollectLogs }}
      hostMetrics:
        enabled: {{ default false .CollectHostMetrics }}
    {{- with .OTLPEndpoint }}
    config:
      exporters:
        otlphttp:
          endpoint: {{ . }}
          {{- if $.Service.OTLPInsecure }}
          tls:
            insecure: true
          {{- end }}
      service:
        pipelines:
          traces:
            exporters: [otlphttp]
          metrics:
            exporters: [otlphttp]
          logs:
            exporters: [otlphttp]
    {{- end }}
{{- with .TraceSamplingRatio }}
instrumentation:
  # The Instrumentation auto-instrumented workloads use: its SDKs keep this
  # fraction of traces (parent-based ratio sampling).
  enabled: true
  # The SDKs export to the base's daemon collector: the operator's Service for the collector
  # <release>-daemon (the chart's default, collector-collector, names a collector the base does not run).
  exporter:
    endpoint: {{ print "http://opentelemetry-kube-stack-daemon-collector." $.Unit.Namespace ".svc:4318" }}
  sampler:
    type: parentbased_traceidratio
    argument: {{ print . }}
{{- end }}
{{- end }}
