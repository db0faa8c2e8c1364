# The nodes of the Kafka cluster {{ .Service.ClusterName }}: each is a KRaft controller and a broker.
{{- with .Service }}
apiVersion: kafka.strimzi.io/v1
kind: KafkaNodePool
metadata:
  name: {{ .ClusterName }}-dual-role
  namespace: {{ $.Unit.Namespace }}
  labels:
    strimzi.io/cluster: {{ .ClusterName }}
spec:
  replicas: {{ default 3 .Replicas }}
  roles:
    - controller
    - broker
  storage:
    type: jbod
    volumes:
      - id: 0
        type: persistent-claim
        size: {{ .StorageSize }}
        {{- with .StorageClass }}
        class: {{ . }}
        {{- end }}
        deleteClaim: false
        kraftMetadata: shared
{{- end }}
