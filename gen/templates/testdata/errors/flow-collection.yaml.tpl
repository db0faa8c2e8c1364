apiVersion: v1
kind: ConfigMap
data:
  hosts: [{{ .Service.Hostname }}]
