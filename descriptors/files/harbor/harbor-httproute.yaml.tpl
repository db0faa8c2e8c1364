{{- with .OpenCenter.Services.Gateway }}{{ if .Enabled -}}
# Publishes Harbor at opencenter.services.harbor.hostname, its externalURL, through the cluster
# Gateway, which terminates TLS. Behind it Harbor's nginx serves HTTP on the Service the chart
# names after expose.clusterIP.name (harbor in the base), and takes the scheme from X-Forwarded-Proto.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: harbor
  namespace: {{ $.Unit.Namespace }}
spec:
  parentRefs:
    # HTTPS only: the portal's and docker login's passwords must not cross the network in
    # clear text (the gateway unit redirects plain HTTP to this name).
    - name: {{ .Name }}
      namespace: {{ .Namespace }}
      port: 443
  hostnames:
    - {{ $.Service.Hostname }}
  rules:
    - backendRefs:
        - name: harbor
          port: 80
      # No limit on a request's time: Envoy's default route timeout (15 s, from the end
      # of the request to the end of the response) would cut a large layer's pull, and
      # the commit of its push.
      timeouts:
        request: 0s
{{- end }}{{ end }}
