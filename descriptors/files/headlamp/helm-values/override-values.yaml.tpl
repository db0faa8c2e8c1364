# Values for the headlamp HelmRelease, from opencenter.services.headlamp.
{{- with .Service }}
config:
  inCluster: true
  {{- if .OIDCEnabled }}
  oidc:
    {{- with .OIDCExistingSecret }}
    # The client ID, secret, issuer, scopes and callback URL come from the
    # existing Secret {{ . }} (oidc_existing_secret), as environment variables.
    {{- else }}
    # The client ID, secret, issuer, scopes and callback URL come from the
    # Secret headlamp-oidc (secrets.services.headlamp), as environment variables.
    {{- end }}
    secret:
      create: false
    externalSecret:
      enabled: true
      name: {{ default "headlamp-oidc" .OIDCExistingSecret }}
    {{- with .Hostname }}
    callbackURL: {{ print "https://" . "/oidc-callback" }}
    {{- end }}
  {{- end }}
{{- end }}
