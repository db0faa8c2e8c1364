apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: keycloak
  namespace: {{ .Unit.Namespace }}
spec:
  minReplicas: {{ .Service.Instances }}
  maxReplicas: {{ .Service.MaxReplicas }}
