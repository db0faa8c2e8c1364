# The namespace of the etcd backup job: it reads the etcd client certificates from the host.
apiVersion: v1
kind: Namespace
metadata:
  name: {{ .Unit.Namespace }}
  labels:
    pod-security.kubernetes.io/enforce: privileged
