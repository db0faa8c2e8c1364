apiVersion: v1
kind: ConfigMap
data:
  hostname: {{ .Service.Hostnme }}
  realm: {{ .Service.Realm.Name }}
  cluster: {{ .OpenCenter.Clustr.ClusterName }}
  unit: {{ .Unti.Namespace }}
