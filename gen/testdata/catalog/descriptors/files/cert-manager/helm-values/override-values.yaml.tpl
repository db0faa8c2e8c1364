# Values for the cert-manager HelmRelease {{ .Unit.HelmRelease }}.
crds:
  enabled: true
{{- with .Service }}
{{- if eq (print .DNSProvider) "route53" "designate" "cloudflare" }}
extraArgs:
  - --dns01-recursive-nameservers-only
{{- end }}
{{- end }}
