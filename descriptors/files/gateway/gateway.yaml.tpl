# The cluster Gateway: HTTPRoutes of every namespace attach to it.
{{- with .Service.Issuer }}
# cert-manager issues the HTTPS listeners' certificates with the ClusterIssuer {{ . }}.
{{- end }}
{{- if .Service.DerivedListeners }}
# Its listeners are the defaults, for opencenter.cluster.base_domain.
{{- end }}
{{- with .Service }}
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: {{ .Name }}
  namespace: {{ $.Unit.Namespace }}
  {{- with .Issuer }}
  annotations:
    cert-manager.io/cluster-issuer: {{ . }}
  {{- end }}
spec:
  gatewayClassName: {{ .GatewayClassName }}
  listeners:
    {{- range .Listeners }}
    - name: {{ .Name }}
      protocol: {{ .Protocol }}
      port: {{ .Port }}
      {{- with .Hostname }}
      hostname: {{ . }}
      {{- end }}
      {{- if eq (print .Protocol) "HTTPS" }}
      tls:
        mode: Terminate
        certificateRefs:
          - kind: Secret
            name: {{ .TLSSecretName }}
      {{- end }}
      allowedRoutes:
        namespaces:
          from: All
    {{- end }}
{{- end }}
