# Values for the harbor HelmRelease, from opencenter.services.harbor.
{{- with .Service }}
externalURL: {{ quote (print "https://" .Hostname) }}
expose:
  {{- if .EmitCertificate }}
  tls:
    # Harbor terminates TLS itself with the cert-manager Certificate harbor-tls.
    enabled: true
    certSource: secret
    secret:
      secretName: harbor-tls
  {{- end }}
  ingress:
    hosts:
      core: {{ quote .Hostname }}
# The admin password is in the Secret harbor-admin (secrets.services.harbor).
existingSecretAdminPassword: harbor-admin
existingSecretAdminPasswordKey: HARBOR_ADMIN_PASSWORD
persistence:
  persistentVolumeClaim:
    registry:
      {{- with .StorageClass }}
      storageClass: {{ quote . }}
      {{- end }}
      size: {{ .StorageSize }}
    {{- with .StorageClass }}
    jobservice:
      jobLog:
        storageClass: {{ quote . }}
    database:
      storageClass: {{ quote . }}
    redis:
      storageClass: {{ quote . }}
    trivy:
      storageClass: {{ quote . }}
    {{- end }}
  imageChartStorage:
    type: {{ .Storage }}
    {{- if eq (print .Storage) "s3" }}
    {{- if .Endpoint }}
    # S3-compatible stores other than AWS rarely serve redirects to signed URLs.
    disableredirect: true
    {{- end }}
    s3:
      # REGISTRY_STORAGE_S3_ACCESSKEY/SECRETKEY come from the Secret harbor-object-store.
      existingSecret: harbor-object-store
      bucket: {{ quote .Bucket }}
      region: {{ quote .Region }}
      {{- with .Endpoint }}
      regionendpoint: {{ quote . }}
      {{- end }}
    {{- end }}
trivy:
  enabled: {{ default false .TrivyEnabled }}
{{- end }}
