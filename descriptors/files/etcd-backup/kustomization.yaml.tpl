# Scheduled etcd snapshots to object storage (opencenter.services.etcd-backup).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - namespace.yaml
  - serviceaccount.yaml
  {{- if not .Service.ExistingSecret }}
  - s3-credentials-secret.yaml
  {{- end }}
  - cronjob.yaml
