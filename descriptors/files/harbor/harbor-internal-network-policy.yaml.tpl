# Only Harbor's own pods reach its internal database, Redis and Trivy
# adapter (opencenter.services.harbor.internal_network_policy): Redis and
# the adapter's API take no credentials, and core keeps its login sessions
# in Redis. The labels are those the harbor chart 1.17.2 gives every pod of
# release harbor (harbor.matchLabels).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: harbor-internal
  namespace: {{ .Unit.Namespace }}
spec:
  podSelector:
    matchLabels:
      app: harbor
      release: harbor
    matchExpressions:
      - key: component
        operator: In
        values:
          - database
          - redis
          - trivy
  policyTypes:
    - Ingress
  ingress:
    - from:
        - podSelector:
            matchLabels:
              app: harbor
              release: harbor
