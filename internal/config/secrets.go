package config

// Secrets holds the secret material of a cluster config. Its values are never
// rendered in plaintext unless asked for.
type Secrets struct {
	// OverlayUnits holds the secrets of the overlay units that are not services.
	OverlayUnits OverlayUnitSecrets `json:"overlay_units,omitempty"`
	// Services holds the credentials of platform services, keyed like opencenter.services.
	Services ServiceSecrets `json:"services,omitempty"`
	// ManagedServices holds the credentials of managed services, keyed like opencenter.managed_services.
	ManagedServices ManagedServiceSecrets `json:"managed_services,omitempty"`
}

// OverlayUnitSecrets holds the secrets of the overlay units that are not services.
type OverlayUnitSecrets struct {
	// CustomerManaged holds the SSH credentials of the customer repository.
	CustomerManaged CustomerManagedSecrets `json:"customer_managed,omitempty"`
}

// CustomerManagedSecrets are the SSH credentials Flux uses to pull the customer
// repository; they are rendered only when customer_managed.emit_secret is true.
type CustomerManagedSecrets struct {
	// Identity is the SSH private key (PEM, OpenSSH format) of the deploy key.
	Identity string `json:"identity,omitempty" required_when:"emit_secret"`
	// IdentityPub is the SSH public key of the deploy key, one authorized_keys line.
	IdentityPub string `json:"identity_pub,omitempty" required_when:"emit_secret"`
	// KnownHosts is the known_hosts line(s) of the customer repository's Git server.
	KnownHosts string `json:"known_hosts,omitempty" required_when:"emit_secret"`
}

// ServiceSecrets holds the credentials of the platform services that need
// them. Field names and keys match Services.
type ServiceSecrets struct {
	// CertManager holds the DNS provider credentials of cert-manager.
	CertManager *CertManagerSecrets `json:"cert-manager,omitempty"`
	// EtcdBackup holds the object store credentials of etcd-backup.
	EtcdBackup *EtcdBackupSecrets `json:"etcd-backup,omitempty"`
	// Harbor holds Harbor's admin password and object store credentials.
	Harbor *HarborSecrets `json:"harbor,omitempty"`
	// Headlamp holds Headlamp's OIDC client secret.
	Headlamp *HeadlampSecrets `json:"headlamp,omitempty"`
	// Keycloak holds Keycloak's admin and database passwords.
	Keycloak *KeycloakSecrets `json:"keycloak,omitempty"`
	// KubePrometheusStack holds Grafana's admin password.
	KubePrometheusStack *KubePrometheusStackSecrets `json:"kube-prometheus-stack,omitempty"`
	// Loki holds Loki's object store credentials.
	Loki *LokiSecrets `json:"loki,omitempty"`
	// Longhorn holds the logins of the published Longhorn UI.
	Longhorn *LonghornSecrets `json:"longhorn,omitempty"`
	// Mimir holds Mimir's object store credentials.
	Mimir *MimirSecrets `json:"mimir,omitempty"`
	// OpenStackCCM holds the OpenStack application credential of the cloud controller manager.
	OpenStackCCM *OpenStackCCMSecrets `json:"openstack-ccm,omitempty"`
	// OpenStackCSI holds the OpenStack application credential of the Cinder CSI driver.
	OpenStackCSI *OpenStackCSISecrets `json:"openstack-csi,omitempty"`
	// Tempo holds Tempo's object store credentials.
	Tempo *TempoSecrets `json:"tempo,omitempty"`
	// Velero holds Velero's object store credentials.
	Velero *VeleroSecrets `json:"velero,omitempty"`
	// VSphereCSI holds the vCenter credentials of the vSphere CSI driver.
	VSphereCSI *VSphereCSISecrets `json:"vsphere-csi,omitempty"`
	// WeaveGitOps holds the Weave GitOps admin password hash.
	WeaveGitOps *WeaveGitOpsSecrets `json:"weave-gitops,omitempty"`
}

// CertManagerSecrets are the credentials of cert-manager's DNS-01 provider;
// only those of the configured dns_provider are used.
type CertManagerSecrets struct {
	// CloudflareAPIToken is a Cloudflare API token with Zone:DNS:Edit on base_domain's zone.
	CloudflareAPIToken string `json:"cloudflare_api_token,omitempty" required_when:"issuer=acme,dns_provider=cloudflare,!dns_existing_secret"`
	// Route53AccessKeyID is the AWS access key ID of an IAM user allowed to change the hosted zone.
	Route53AccessKeyID string `json:"route53_access_key_id,omitempty" required_when:"issuer=acme,dns_provider=route53,!dns_existing_secret"`
	// Route53SecretAccessKey is the AWS secret access key of that IAM user.
	Route53SecretAccessKey string `json:"route53_secret_access_key,omitempty" required_when:"issuer=acme,dns_provider=route53,!dns_existing_secret"`
	// DesignateApplicationCredentialID is the ID of the OpenStack application credential used with Designate.
	DesignateApplicationCredentialID string `json:"designate_application_credential_id,omitempty" required_when:"issuer=acme,dns_provider=designate,!dns_existing_secret"`
	// DesignateApplicationCredentialSecret is the secret of that application credential.
	DesignateApplicationCredentialSecret string `json:"designate_application_credential_secret,omitempty" required_when:"issuer=acme,dns_provider=designate,!dns_existing_secret"`
}

// EtcdBackupSecrets are the object store credentials of etcd-backup.
type EtcdBackupSecrets struct {
	// AccessKeyID is the S3 access key ID with write access to the bucket.
	AccessKeyID string `json:"access_key_id,omitempty" required_when:"enabled,!existing_secret"`
	// SecretAccessKey is the S3 secret access key.
	SecretAccessKey string `json:"secret_access_key,omitempty" required_when:"enabled,!existing_secret"`
}

// HarborSecrets are Harbor's admin password, encryption key, internal passwords and object store credentials.
type HarborSecrets struct {
	// AdminPassword is the initial password of Harbor's admin user (the chart's default is public).
	AdminPassword string `json:"admin_password,omitempty" required_when:"enabled,!admin_existing_secret"`
	// SecretKey is the key Harbor encrypts the credentials it stores (replication endpoints, OIDC and LDAP settings) with, instead of the chart's public default: 16 bytes, such as the output of openssl rand -hex 8. A Harbor installed before this field used that default, not-a-secure-key: give it to keep the stored credentials readable, or give a new key and enter them again.
	SecretKey string `json:"secret_key,omitempty" required_when:"enabled,!secret_key_existing_secret"`
	// DatabasePassword is the password of the postgres superuser of Harbor's internal database, instead of the chart's public default: at least 8 characters, each a letter, a digit or one of ._~+/=-, such as the output of openssl rand -base64 24. The database sets it when it first starts, and any pod in the cluster can reach it with it. A Harbor installed before this field uses changeit: give it to keep Harbor working, or first set the new password in the database (ALTER USER postgres PASSWORD '...' in harbor-database-0).
	DatabasePassword string `json:"database_password,omitempty" required_when:"enabled,!values_existing_secret"`
	// RegistryPassword is the password core and jobservice log in to Harbor's registry with, instead of the chart's public default: 8 to 72 bytes (the registry keeps its bcrypt hash), such as the output of openssl rand -base64 24. With the default, any pod in the cluster could push to the registry past Harbor's projects and permissions. A new one takes effect when the chart next rolls the pods out.
	RegistryPassword string `json:"registry_password,omitempty" required_when:"enabled,!values_existing_secret"`
	// AccessKeyID is the S3 access key ID of the registry bucket.
	AccessKeyID string `json:"access_key_id,omitempty" required_when:"storage=s3,!object_store_existing_secret"`
	// SecretAccessKey is the S3 secret access key of the registry bucket.
	SecretAccessKey string `json:"secret_access_key,omitempty" required_when:"storage=s3,!object_store_existing_secret"`
	// SwiftPassword is the Keystone password of opencenter.services.harbor.swift_username.
	SwiftPassword string `json:"swift_password,omitempty" required_when:"storage=swift,!object_store_existing_secret"`
}

// HeadlampSecrets are Headlamp's OIDC credentials.
type HeadlampSecrets struct {
	// OIDCClientSecret is the secret of Headlamp's OIDC client.
	OIDCClientSecret string `json:"oidc_client_secret,omitempty" required_when:"oidc_enabled,!oidc_existing_secret"`
}

// KeycloakSecrets are Keycloak's passwords.
type KeycloakSecrets struct {
	// AdminPassword is the initial password of Keycloak's bootstrap admin user, rendered into the Secret keycloak-initial-admin; with neither it nor admin_existing_secret, the operator generates one there.
	AdminPassword string `json:"admin_password,omitempty"`
	// DBPassword is the password of the keycloak user of Keycloak's PostgreSQL cluster, rendered into the Secret the postgres operator and the Keycloak CR read (keycloak.postgres-cluster.credentials.postgresql.acid.zalan.do); empty lets the operator generate one.
	DBPassword string `json:"db_password,omitempty"`
}

// KubePrometheusStackSecrets are the passwords of kube-prometheus-stack.
type KubePrometheusStackSecrets struct {
	// GrafanaAdminPassword is the password of Grafana's admin user; with neither it nor grafana_existing_secret, the Grafana chart generates one.
	GrafanaAdminPassword string `json:"grafana_admin_password,omitempty"`
	// AlertmanagerHtpasswd is the list of logins the cluster Gateway lets through to the Alertmanager it publishes at alertmanager_hostname (while opencenter.services.gateway is enabled; left out of the render while it is not), which has none of its own: htpasswd lines user:{SHA}hash (the only form Envoy Gateway takes), one per user, such as the output of htpasswd -nbs alerts 'a long password'.
	AlertmanagerHtpasswd string `json:"alertmanager_htpasswd,omitempty" required_when:"alertmanager_auth=basic,opencenter.services.gateway.enabled,alertmanager_hostname,!alertmanager_htpasswd_existing_secret"`
}

// LokiSecrets are Loki's object store credentials, used unless storage is filesystem.
type LokiSecrets struct {
	// AccessKeyID is the S3 access key ID (or Swift application credential ID) of the bucket.
	AccessKeyID string `json:"access_key_id,omitempty" required_when:"storage=s3|swift,!existing_secret"`
	// SecretAccessKey is the S3 secret access key (or Swift application credential secret).
	SecretAccessKey string `json:"secret_access_key,omitempty" required_when:"storage=s3|swift,!existing_secret"`
}

// LonghornSecrets are the logins the cluster Gateway asks for before the
// Longhorn UI.
type LonghornSecrets struct {
	// UIHtpasswd is the list of logins the cluster Gateway lets through to the Longhorn UI it publishes at hostname (while opencenter.services.gateway is enabled; left out of the render while it is not), which has none of its own: htpasswd lines user:{SHA}hash (the only form Envoy Gateway takes), one per user, such as the output of htpasswd -nbs storage 'a long password'.
	UIHtpasswd string `json:"ui_htpasswd,omitempty" required_when:"ui_auth=basic,opencenter.services.gateway.enabled,hostname,!ui_htpasswd_existing_secret"`
}

// MimirSecrets are Mimir's object store credentials: the bucket's, unless
// storage is filesystem, and with filesystem the root password of the
// chart's bundled MinIO.
type MimirSecrets struct {
	// AccessKeyID is the S3 access key ID (or Swift application credential ID) of the bucket.
	AccessKeyID string `json:"access_key_id,omitempty" required_when:"storage=s3|swift,!existing_secret"`
	// SecretAccessKey is the S3 secret access key (or Swift application credential secret).
	SecretAccessKey string `json:"secret_access_key,omitempty" required_when:"storage=s3|swift,!existing_secret"`
	// MinIORootPassword is the root password of the MinIO that keeps Mimir's blocks with storage filesystem, instead of the base's public default: at least 8 characters, starting with a letter, each a letter, a digit or one of ._~+/=-, such as m followed by the output of openssl rand -hex 16. MinIO's S3 API is open to every pod in the cluster, so with the default any of them could read, rewrite or delete the blocks. A Mimir installed before this field keeps its blocks: MinIO and Mimir's pods restart with the new password when the chart next rolls them out.
	MinIORootPassword string `json:"minio_root_password,omitempty" required_when:"storage=filesystem,!values_existing_secret"`
}

// OpenStackCCMSecrets are the OpenStack credentials of the cloud controller manager.
type OpenStackCCMSecrets struct {
	// ApplicationCredentialID is the ID of an OpenStack application credential of the cluster's project.
	ApplicationCredentialID string `json:"application_credential_id,omitempty" required_when:"enabled,!existing_secret"`
	// ApplicationCredentialSecret is the secret of that application credential.
	ApplicationCredentialSecret string `json:"application_credential_secret,omitempty" required_when:"enabled,!existing_secret"`
}

// OpenStackCSISecrets are the OpenStack credentials of the Cinder CSI driver.
type OpenStackCSISecrets struct {
	// ApplicationCredentialID is the ID of an OpenStack application credential of the cluster's project.
	ApplicationCredentialID string `json:"application_credential_id,omitempty" required_when:"enabled,!existing_secret"`
	// ApplicationCredentialSecret is the secret of that application credential.
	ApplicationCredentialSecret string `json:"application_credential_secret,omitempty" required_when:"enabled,!existing_secret"`
}

// TempoSecrets are Tempo's object store credentials, used unless storage is filesystem.
type TempoSecrets struct {
	// AccessKeyID is the S3 access key ID of the bucket.
	AccessKeyID string `json:"access_key_id,omitempty" required_when:"storage=s3,!existing_secret"`
	// SecretAccessKey is the S3 secret access key of the bucket.
	SecretAccessKey string `json:"secret_access_key,omitempty" required_when:"storage=s3,!existing_secret"`
}

// VeleroSecrets are Velero's object store credentials.
type VeleroSecrets struct {
	// AccessKeyID is the S3 access key ID with write access to the backup bucket.
	AccessKeyID string `json:"access_key_id,omitempty" required_when:"enabled,!existing_secret"`
	// SecretAccessKey is the S3 secret access key.
	SecretAccessKey string `json:"secret_access_key,omitempty" required_when:"enabled,!existing_secret"`
}

// VSphereCSISecrets are the vCenter credentials of the vSphere CSI driver.
type VSphereCSISecrets struct {
	// Username is the vCenter user of the driver, such as svc-k8s-csi@vsphere.local.
	Username string `json:"username,omitempty" required_when:"enabled,!existing_secret"`
	// Password is that user's password.
	Password string `json:"password,omitempty" required_when:"enabled,!existing_secret"`
}

// WeaveGitOpsSecrets are the Weave GitOps dashboard credentials.
type WeaveGitOpsSecrets struct {
	// AdminPasswordHash is the bcrypt hash of the admin user's password (htpasswd -nbBC 10 '' <password>).
	AdminPasswordHash string `json:"admin_password_hash,omitempty" required_when:"enabled,!admin_existing_secret"`
}

// ManagedServiceSecrets holds the credentials of managed services. Field names
// and keys match ManagedServices.
type ManagedServiceSecrets struct {
	// AlertProxy holds the tokens of alert-proxy.
	AlertProxy *AlertProxySecrets `json:"alert-proxy,omitempty"`
}

// AlertProxySecrets are alert-proxy's tokens.
type AlertProxySecrets struct {
	// APIToken is the account service token alert-proxy opens tickets with: the secret of the account's Watchman webhooks (ACCOUNT_SERVICE_TOKEN).
	APIToken string `json:"api_token,omitempty" required_when:"enabled,!existing_secret"`
}

// credentials returns the application credential; nil has none.
func (s *OpenStackCCMSecrets) credentials() (string, string) {
	if s == nil {
		return "", ""
	}
	return s.ApplicationCredentialID, s.ApplicationCredentialSecret
}

// credentials returns the application credential; nil has none.
func (s *OpenStackCSISecrets) credentials() (string, string) {
	if s == nil {
		return "", ""
	}
	return s.ApplicationCredentialID, s.ApplicationCredentialSecret
}
