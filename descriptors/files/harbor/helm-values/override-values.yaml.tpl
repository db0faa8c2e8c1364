# Values for the harbor HelmRelease, from opencenter.services.harbor.
{{- with .Service }}
{{- $storage := print .Storage }}
{{- $objectStore := default "harbor-object-store" .ObjectStoreExistingSecret }}
externalURL: {{ print "https://" .Hostname }}
{{- with $.OpenCenter.Services.Gateway }}{{ if .Enabled }}
# The cluster Gateway publishes Harbor and terminates TLS (harbor-httproute.yaml): Harbor
# serves HTTP behind it, as the base's expose.tls.enabled false has it.
{{- end }}{{ end }}
{{- if .EmitCertificate }}
expose:
  tls:
    # Harbor terminates TLS itself with the cert-manager Certificate harbor-tls.
    enabled: true
    certSource: secret
    secret:
      secretName: harbor-tls
{{- end }}
{{- with .AdminExistingSecret }}
# The admin password is in the existing Secret {{ . }} (admin_existing_secret).
existingSecretAdminPassword: {{ . }}
{{- else }}
# The admin password is in the Secret harbor-admin (secrets.services.harbor).
existingSecretAdminPassword: harbor-admin
{{- end }}
existingSecretAdminPasswordKey: HARBOR_ADMIN_PASSWORD
{{- with .SecretKeyExistingSecret }}
# The key Harbor encrypts stored credentials with is in the existing Secret {{ . }} (secret_key_existing_secret).
existingSecretSecretKey: {{ . }}
{{- else }}
# The key Harbor encrypts stored credentials with is in the Secret harbor-secret-key (secrets.services.harbor).
existingSecretSecretKey: harbor-secret-key
{{- end }}
persistence:
  {{- if or (eq $storage "filesystem") .StorageClass }}
  persistentVolumeClaim:
    {{- if eq $storage "filesystem" }}
    # The chart makes the registry's volume only with storage filesystem.
    registry:
      {{- with .StorageClass }}
      storageClass: {{ . }}
      {{- end }}
      size: {{ .StorageSize }}
    {{- end }}
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
  {{- end }}
  imageChartStorage:
    type: {{ .Storage }}
    {{- if eq $storage "s3" }}
    {{- if .Endpoint }}
    # S3-compatible stores other than AWS rarely serve redirects to signed URLs.
    disableredirect: true
    {{- end }}
    s3:
      # REGISTRY_STORAGE_S3_ACCESSKEY/SECRETKEY come from the Secret {{ $objectStore }}.
      existingSecret: {{ $objectStore }}
      bucket: {{ .Bucket }}
      region: {{ .Region }}
      {{- with .Endpoint }}
      regionendpoint: {{ . }}
      {{- end }}
    {{- else if eq $storage "swift" }}
    swift:
      authurl: {{ .Endpoint }}
      authversion: 3
      username: {{ .SwiftUsername }}
      tenant: {{ .SwiftProject }}
      domain: {{ .SwiftDomain }}
      container: {{ .Bucket }}
      {{- with .Region }}
      region: {{ . }}
      {{- end }}
      # REGISTRY_STORAGE_SWIFT_PASSWORD comes from the Secret {{ $objectStore }}.
      existingSecret: {{ $objectStore }}
    {{- end }}
trivy:
  enabled: {{ default false .TrivyEnabled }}
{{- end }}
