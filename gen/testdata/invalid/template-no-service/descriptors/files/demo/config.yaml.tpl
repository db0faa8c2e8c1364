apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
data:
  hostname: {{ .Service.Hostname }}
