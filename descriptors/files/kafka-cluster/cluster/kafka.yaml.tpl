# The Kafka cluster of opencenter.services.kafka-cluster (KRaft, node pools).
{{- with .Service }}
{{- $n := default 3 .Replicas }}
{{- $rf := $n }}{{ if ge $n 3 }}{{ $rf = 3 }}{{ end }}
{{- $isr := $n }}{{ if ge $n 2 }}{{ $isr = 2 }}{{ end }}
{{- if lt $rf 3 }}{{ $isr = 1 }}{{ end }}
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: {{ .ClusterName }}
  namespace: {{ $.Unit.Namespace }}
  annotations:
    strimzi.io/node-pools: enabled
    strimzi.io/kraft: enabled
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
