# Values for the strimzi-kafka-operator HelmRelease, from opencenter.services.kafka-cluster.
# The operator watches its own namespace, where the Kafka cluster of services/kafka-cluster/cluster lives.
watchAnyNamespace: false
