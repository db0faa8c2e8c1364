# Realm {{ .Service.Realm }} of {{ .OpenCenter.Cluster.ClusterName }}, {{ default 1 .Service.Instances }} instance(s).
apiVersion: v1
kind: Secret
metadata:
  name: {{ .Service.Realm }}-realm
  namespace: {{ .Unit.Namespace }}
  labels:{{ toYaml .OpenCenter.Meta.Labels | nindent 4 }}
stringData:
  instances: {{ print (default 1 .Service.Instances) }}
  {{- with .Service.FrontendURL }}
  frontend: {{ trimPrefix "https://" . }}
  secure: {{ hasPrefix "https://" . }}
  {{- end }}
  {{- with .Service.MaxReplicas }}
  max: {{ . }}
  {{- end }}
  realm.conf: |{{/* gcfg */}}
    [realm {{ .Service.Realm }}]
    hostname = {{ .Service.Hostname }}
    ; clients of {{ .Service.OIDCClientID }}
  credentials: |{{/* ini */}}
    [default]
    client_id={{ .Service.OIDCClientID }}
    password={{ .Secrets.AdminPassword }}
