# Snapshots etcd on a control-plane node (opencenter.services.etcd-backup.schedule, UTC),
# uploads the snapshot to s3://{{ .Service.Bucket }}/{{ .OpenCenter.Cluster.ClusterName }}/ and keeps the
# newest {{ .Service.RetentionCount }} snapshots.
{{- with .Service }}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: etcd-backup
  namespace: {{ $.Unit.Namespace }}
spec:
  schedule: {{ .Schedule }}
  timeZone: Etc/UTC
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 3
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          serviceAccountName: etcd-backup
          automountServiceAccountToken: false
          restartPolicy: OnFailure
          # etcd listens on the control-plane nodes' loopback address.
          hostNetwork: true
          nodeSelector:
            node-role.kubernetes.io/control-plane: ""
          tolerations:
            - key: node-role.kubernetes.io/control-plane
              operator: Exists
              effect: NoSchedule
          initContainers:
            - name: snapshot
              image: registry.k8s.io/etcd:3.5.21-0
              command:
                - etcdctl
                - snapshot
                - save
                - /backup/etcd-snapshot.db
              env:
                - name: ETCDCTL_API
                  value: "3"
                - name: ETCDCTL_ENDPOINTS
                  value: https://127.0.0.1:2379
                - name: ETCDCTL_CACERT
                  value: /etc/kubernetes/pki/etcd/ca.crt
                - name: ETCDCTL_CERT
                  value: /etc/kubernetes/pki/etcd/healthcheck-client.crt
                - name: ETCDCTL_KEY
                  value: /etc/kubernetes/pki/etcd/healthcheck-client.key
              volumeMounts:
                - name: etcd-certs
                  mountPath: /etc/kubernetes/pki/etcd
                  readOnly: true
                - name: backup
                  mountPath: /backup
          containers:
            - name: upload
              image: docker.io/amazon/aws-cli:2.27.0
              command: ["/bin/bash", "-c"]
              args:
                - |
                  set -euo pipefail
                  prefix="s3://${BUCKET}/${CLUSTER}/"
                  aws ${ENDPOINT:+--endpoint-url "$ENDPOINT"} s3 cp /backup/etcd-snapshot.db "${prefix}etcd-snapshot-$(date -u +%Y%m%dT%H%M%SZ).db"
                  aws ${ENDPOINT:+--endpoint-url "$ENDPOINT"} s3 ls "$prefix" | awk '{print $4}' | grep '^etcd-snapshot-' | sort | head -n "-${RETENTION_COUNT}" |
                    while read -r old; do aws ${ENDPOINT:+--endpoint-url "$ENDPOINT"} s3 rm "${prefix}${old}"; done
              env:
                - name: BUCKET
                  value: {{ .Bucket }}
                - name: CLUSTER
                  value: {{ $.OpenCenter.Cluster.ClusterName }}
                - name: RETENTION_COUNT
                  value: {{ print .RetentionCount }}
                - name: AWS_DEFAULT_REGION
                  value: {{ .Region }}
                {{- with .Endpoint }}
                - name: ENDPOINT
                  value: {{ . }}
                {{- end }}
              envFrom:
                # AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
                - secretRef:
                    name: {{ default "etcd-backup-s3" .ExistingSecret }}
              volumeMounts:
                - name: backup
                  mountPath: /backup
          volumes:
            - name: etcd-certs
              hostPath:
                path: /etc/kubernetes/pki/etcd
                type: Directory
            - name: backup
              emptyDir: {}
{{- end }}
