{{- with .Service -}}
{{- $issuer := print (default (print "https://" .Hostname) .FrontendURL) "/realms/" .Realm }}
{{- $callback := "" }}{{ $headlampClient := "" }}
{{- with $.OpenCenter.Services.Headlamp }}{{ if and .Enabled .OIDCEnabled .Hostname (eq .OIDCIssuerURL $issuer) }}
{{- $callback = print "https://" .Hostname "/oidc-callback" }}{{ $headlampClient = .OIDCClientID }}
{{- end }}{{ end -}}
# Creates realm opencenter.services.keycloak.realm, when Keycloak has none of the name (the
# operator's import job leaves a realm that exists as it is): the groups the base's OIDC RBAC
# (30-oidc-rbac) binds as oidc:<group>, and the clients of kubectl logins and of Headlamp.
# No user: add them in Keycloak.
apiVersion: k8s.keycloak.org/v2alpha1
kind: KeycloakRealmImport
metadata:
  name: {{ .Realm }}
  namespace: {{ $.Unit.Namespace }}
spec:
  keycloakCRName: keycloak
  realm:
    realm: {{ .Realm }}
    enabled: true
    groups:
      - name: cluster-admins
      - name: k8s-ops
      - name: namespace-admins
      - name: observability
      - name: platform-team
      - name: read-only
      - name: security-team
    clients:
      # opencenter.services.keycloak.oidc_client_id: the Kubernetes API server's, for kubectl
      # logins through kubelogin, which listens on localhost:8000, or :18000 when that is taken.
      - clientId: {{ .OIDCClientID }}
        publicClient: true
        standardFlowEnabled: true
        directAccessGrantsEnabled: false
        redirectUris:
          - http://localhost:8000
          - http://localhost:18000
          {{- if and $callback (eq $headlampClient .OIDCClientID) }}
          - {{ $callback }}
          {{- end }}
        protocolMappers:
          - name: groups
            protocol: openid-connect
            protocolMapper: oidc-group-membership-mapper
            config:
              claim.name: groups
              full.path: "false"
              id.token.claim: "true"
              access.token.claim: "true"
              userinfo.token.claim: "true"
      {{- if and $callback (ne $headlampClient .OIDCClientID) }}
      # Headlamp's (opencenter.services.headlamp.oidc_client_id), public: the import cannot read
      # its secret, so Keycloak does not check the one Headlamp sends.
      - clientId: {{ $headlampClient }}
        publicClient: true
        standardFlowEnabled: true
        directAccessGrantsEnabled: false
        redirectUris:
          - {{ $callback }}
        protocolMappers:
          - name: groups
            protocol: openid-connect
            protocolMapper: oidc-group-membership-mapper
            config:
              claim.name: groups
              full.path: "false"
              id.token.claim: "true"
              access.token.claim: "true"
              userinfo.token.claim: "true"
      {{- end }}
{{- end }}
