apiVersion: batch/v1
kind: CronJob
metadata:
  name: keycloak-db-backup
  namespace: {{ .Unit.Namespace }}
spec:
  schedule: {{ .Service.BackupSchedule }}
