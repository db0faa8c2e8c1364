{{- if ne (print .Service.Storage) "filesystem" -}}
# Object store credentials of mimir (secrets.services.mimir), read as environment
# variables by every mimir pod (global.extraEnvFrom) and expanded in its config.
apiVersion: v1
kind: Secret
metadata:
  name: mimir-object-store
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  {{- if eq (print .Service.Storage) "swift" }}
  OS_APPLICATION_CREDENTIAL_ID: {{ .Secrets.AccessKeyID }}
  OS_APPLICATION_CREDENTIAL_SECRET: {{ .Secrets.SecretAccessKey }}
  {{- else }}
  AWS_ACCESS_KEY_ID: {{ .Secrets.AccessKeyID }}
  AWS_SECRET_ACCESS_KEY: {{ .Secrets.SecretAccessKey }}
  {{- end }}
{{- end }}
