apiVersion: v1
kind: ConfigMap
data:
  url: "https://{{ .Service.Hostname }}"
