# The tigera-operator's namespace; the operator runs host-network and privileged pods.
apiVersion: v1
kind: Namespace
metadata:
  name: {{ .Unit.Namespace }}
  labels:
    pod-security.kubernetes.io/enforce: privileged
