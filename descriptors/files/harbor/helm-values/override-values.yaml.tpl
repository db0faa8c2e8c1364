# Values for the harbor HelmRelease, from opencenter.services.harbor.
{{- with .Service }}
externalURL: {{ print "https://" .Hostname }}
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
      core: {{ .Hostname }}
# The admin password is in the Secret harbor-admin (secrets.services.harbor).
existingSecretAdminPassword: harbor-admin
existingSecretAdminPasswordKey: HARBOR_ADMIN_PASSWORD
persistence:
  persistentVolumeClaim:
    registry:
      {{- with .StorageClass }}
      storageClass: {{ . }}
      {{- end }}
      size: {{ .StorageSize }}
    {{- with .StorageClass }}
    jobservice:
      jobLog:
        storageClass: {{ . }}
    database:
      storageClass: {{ . }}
    redis:
      storageClass: {{ . }}
    trivy:
      storageClass: {{ . }}
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
      bucket: {{ .Bucket }}
      region: {{ .Region }}
      {{- with .Endpoint }}
      regionendpoint: {{ . }}
      {{- end }}
    {{- end }}
trivy:
  enabled: {{ default false .TrivyEnabled }}
{{- end }}
