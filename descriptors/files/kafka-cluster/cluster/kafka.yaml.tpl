# The Kafka cluster of opencenter.services.kafka-cluster (KRaft, node pools).
# Strimzi's v1 API: served since 0.49 (the base installs 0.50.0), where
# v1beta2 is deprecated and KRaft and node pools need no annotation.
{{- with .Service }}
{{- $n := default 3 .Replicas }}
{{- $rf := $n }}{{ if ge $n 3 }}{{ $rf = 3 }}{{ end }}
{{- $isr := $n }}{{ if ge $n 2 }}{{ $isr = 2 }}{{ end }}
{{- if lt $rf 3 }}{{ $isr = 1 }}{{ end }}
apiVersion: kafka.strimzi.io/v1
kind: Kafka
metadata:
  name: {{ .ClusterName }}
  namespace: {{ $.Unit.Namespace }}
spec:
  kafka:
    {{- with .KafkaVersion }}
    version: {{ . }}
    {{- end }}
    listeners:
      - name: plain
        port: 9092
        type: internal
        tls: false
      - name: tls
        port: 9093
        type: internal
        tls: true
    config:
      offsets.topic.replication.factor: {{ $rf }}
      transaction.state.log.replication.factor: {{ $rf }}
      transaction.state.log.min.isr: {{ $isr }}
      default.replication.factor: {{ $rf }}
      min.insync.replicas: {{ $isr }}
  entityOperator:
    topicOperator: {}
    userOperator: {}
{{- end }}
