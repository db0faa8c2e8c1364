# The account service token of the alert proxy, from secrets.managed_services.alert-proxy.
apiVersion: v1
kind: Secret
metadata:
  name: alert-proxy-tokens
  namespace: {{ .Unit.Namespace }}
type: Opaque
stringData:
  api-token: {{ .Secrets.APIToken }}
