# Values for the alert-proxy HelmRelease, from opencenter.managed_services.alert-proxy.
# The chart reads each setting from a key of a Secret, as an environment
# variable: the settings from alert-proxy-settings, the token from its own Secret.
{{- with .Service }}
secrets:
  coreAccountId:
    name: alert-proxy-settings
    key: core_account_number
  overseerDeviceId:
    name: alert-proxy-settings
    key: overseer_core_device_id
  alertManagerUrl:
    name: alert-proxy-settings
    key: alert_manager_url
  httpRouteFQDN:
    name: alert-proxy-settings
    key: http_route_fqdn
  accountServiceToken:
    {{- with .ExistingSecret }}
    # The existing Secret existing_secret.
    name: {{ . }}
    {{- else }}
    # The Secret alert-proxy-tokens, from secrets.managed_services.alert-proxy.
    name: alert-proxy-tokens
    {{- end }}
    key: api-token
{{- end }}
