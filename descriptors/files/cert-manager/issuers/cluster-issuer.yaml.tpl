# The ClusterIssuer other services reference (opencenter.services.cert-manager.issuer_name).
{{- with .Service }}
{{- $issuer := print .Issuer }}
{{- $p := print .DNSProvider }}
{{- $dns := .DNSExistingSecret }}
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata:
  name: {{ .IssuerName }}
spec:
  {{- if eq $issuer "selfsigned" }}
  # Each certificate is signed with its own key: trusted by nothing until you trust it.
  selfSigned: {}
  {{- else if eq $issuer "ca" }}
  # Signed by the CA in the Secret ca_secret_name, in cert-manager's namespace.
  ca:
    secretName: {{ .CASecretName }}
  {{- else }}
  acme:
    {{- with .ACMEEmail }}
    email: {{ . }}
    {{- end }}
    server: {{ .ACMEServer }}
    privateKeySecretRef:
      name: {{ .IssuerName }}-acme-account
    solvers:
      {{- if eq $p "cloudflare" }}
      - dns01:
          cloudflare:
            apiTokenSecretRef:
              name: {{ default "cloudflare-api-token" $dns }}
              key: api-token
      {{- else if eq $p "route53" }}
      - dns01:
          route53:
            region: {{ .Route53Region }}
            {{- with .Route53HostedZoneID }}
            hostedZoneID: {{ . }}
            {{- end }}
            accessKeyIDSecretRef:
              name: {{ default "route53-credentials" $dns }}
              key: access-key-id
            secretAccessKeySecretRef:
              name: {{ default "route53-credentials" $dns }}
              key: secret-access-key
      {{- else if eq $p "designate" }}
      # Served by the designate-certmanager-webhook of designate-webhook.yaml.
      - dns01:
          webhook:
            groupName: acme.syseleven.de
            solverName: designateDNS
      {{- else }}
      # HTTP-01 through the cluster Gateway (cert-manager's Gateway API support).
      - http01:
          {{- with $.OpenCenter.Services.Gateway }}{{ if .Enabled }}
          gatewayHTTPRoute:
            parentRefs:
              - name: {{ .Name }}
                namespace: {{ .Namespace }}
                kind: Gateway
          {{- else }}
          # No cluster Gateway: the challenge routes attach to no listener until one exists.
          gatewayHTTPRoute: {}
          {{- end }}{{ else }}
          # No cluster Gateway: the challenge routes attach to no listener until one exists.
          gatewayHTTPRoute: {}
          {{- end }}
      {{- end }}
  {{- end }}
{{- end }}
