# Realm {{ .Service.Realm }} of {{ .OpenCenter.Cluster.ClusterName }}
apiVersion: v1
kind: Secret
metadata:
  name: {{ .Service.Realm }}-realm
  namespace: {{ .Unit.Namespace }}
  labels:{{ toYaml .OpenCenter.Meta.Labels | nindent 4 }}
stringData:
  {{ .Service.Realm }}.url: https://{{ .Service.Hostname }}/realms/{{ .Service.Realm }}
  instances: {{ default 1 .Service.Instances }}
  realm.conf: |{{/* gcfg */}}
    [realm {{ .Service.Realm }}]
    hostname = {{ .Service.Hostname }}
  credentials: |{{/* ini */}}
    [default]
    password={{ .Secrets.AdminPassword }}
  patch: |-{{/* yaml */}}
    hostname: {{ .Service.Hostname }}
