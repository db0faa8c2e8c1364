{{- if ne (print .Service.Storage) "filesystem" -}}
# Object store credentials of tempo (secrets.services.tempo), read as environment
# variables by every tempo pod (global.extraEnvFrom): the S3 client takes them from there.
apiVersion: v1
kind: Secret
metadata:
  name: tempo-object-store
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  AWS_ACCESS_KEY_ID: {{ .Secrets.AccessKeyID }}
  AWS_SECRET_ACCESS_KEY: {{ .Secrets.SecretAccessKey }}
{{- end }}
