# Values for the headlamp HelmRelease, from opencenter.services.headlamp.
{{- with .Service }}
config:
  inCluster: true
  {{- if .OIDCEnabled }}
  oidc:
    # The client ID, secret, issuer, scopes and callback URL come from the
    # Secret headlamp-oidc (secrets.services.headlamp), as environment variables.
    secret:
      create: false
    externalSecret:
      enabled: true
      name: headlamp-oidc
      hasScopes: true
    {{- with .Hostname }}
    callbackURL: {{ print "https://" . "/oidc-callback" }}
    {{- end }}
  {{- end }}
{{- end }}
