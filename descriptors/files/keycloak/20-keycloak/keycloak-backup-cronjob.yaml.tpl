# Nightly logical backup of the keycloak database (opencenter.services.keycloak.backup_schedule).
apiVersion: batch/v1
kind: CronJob
metadata:
  name: keycloak-db-backup
  namespace: {{ .Unit.Namespace }}
spec:
  schedule: {{ .Service.BackupSchedule }}
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 3
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: pg-dump
              # pg_dump refuses a server of a newer major version: the base's postgres-cluster runs 17.
              image: docker.io/library/postgres:17-alpine
              command: ["/bin/sh", "-c"]
              args:
                - pg_dump --format=custom --file=/backup/keycloak-$(date +%Y%m%dT%H%M%S).dump keycloak
              env:
                - name: PGHOST
                  value: postgres-cluster
                - name: PGUSER
                  valueFrom:
                    secretKeyRef:
                      name: keycloak.postgres-cluster.credentials.postgresql.acid.zalan.do
                      key: username
                - name: PGPASSWORD
                  valueFrom:
                    secretKeyRef:
                      name: keycloak.postgres-cluster.credentials.postgresql.acid.zalan.do
                      key: password
              volumeMounts:
                - name: backup
                  mountPath: /backup
          volumes:
            - name: backup
              persistentVolumeClaim:
                claimName: keycloak-db-backup
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: keycloak-db-backup
  namespace: {{ .Unit.Namespace }}
spec:
  accessModes: [ReadWriteOnce]
  {{- with .Service.StorageClass }}
  storageClassName: {{ . }}
  {{- end }}
  resources:
    requests:
      storage: {{ .Service.DBStorageSize }}
