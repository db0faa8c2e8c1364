# The identity of the etcd backup job. It talks to etcd and the object store,
# never to the Kubernetes API: no RBAC, no token.
apiVersion: v1
kind: ServiceAccount
metadata:
  name: etcd-backup
  namespace: {{ .Unit.Namespace }}
automountServiceAccountToken: false
