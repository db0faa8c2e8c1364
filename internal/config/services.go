package config

// Services turns platform services on and configures them. Each field is one
// service of the catalog; a service that is absent is not deployed.
type Services struct {
	// Calico is the Calico CNI, rendered from the cluster repo (no base directory).
	Calico *Calico `json:"calico,omitempty"`
	// CertManager is cert-manager and, when configured, the ClusterIssuer other services get certificates from.
	CertManager *CertManager `json:"cert-manager,omitempty"`
	// EtcdBackup is a scheduled snapshot of etcd to object storage, rendered from the cluster repo.
	EtcdBackup *EtcdBackup `json:"etcd-backup,omitempty"`
	// ExternalSnapshotter is the CSI external-snapshotter: VolumeSnapshot CRDs and controller.
	ExternalSnapshotter *ExternalSnapshotter `json:"external-snapshotter,omitempty"`
	// Gateway is the cluster's Gateway, GatewayClass and EnvoyProxy for Envoy Gateway.
	Gateway *Gateway `json:"gateway,omitempty"`
	// GatewayAPI is Envoy Gateway and the Gateway API CRDs.
	GatewayAPI *GatewayAPI `json:"gateway-api,omitempty"`
	// Harbor is the Harbor container registry.
	Harbor *Harbor `json:"harbor,omitempty"`
	// Headlamp is the Headlamp Kubernetes web UI.
	Headlamp *Headlamp `json:"headlamp,omitempty"`
	// Istio is the Istio service mesh: base, istiod and optional ingress gateway.
	Istio *Istio `json:"istio,omitempty"`
	// KafkaCluster is the Strimzi Kafka operator and one Kafka cluster.
	KafkaCluster *KafkaCluster `json:"kafka-cluster,omitempty"`
	// Keycloak is the Keycloak identity provider, its operator and PostgreSQL database.
	Keycloak *Keycloak `json:"keycloak,omitempty"`
	// KubePrometheusStack is Prometheus, Alertmanager and Grafana.
	KubePrometheusStack *KubePrometheusStack `json:"kube-prometheus-stack,omitempty"`
	// Kyverno is the Kyverno policy engine and its default policy ruleset.
	Kyverno *Kyverno `json:"kyverno,omitempty"`
	// Loki is the Loki log store.
	Loki *Loki `json:"loki,omitempty"`
	// Longhorn is Longhorn distributed block storage.
	Longhorn *Longhorn `json:"longhorn,omitempty"`
	// MetalLB is the MetalLB load-balancer for bare-metal and VMware clusters.
	MetalLB *MetalLB `json:"metallb,omitempty"`
	// Mimir is the Mimir long-term metrics store.
	Mimir *Mimir `json:"mimir,omitempty"`
	// OLM is the Operator Lifecycle Manager.
	OLM *OLM `json:"olm,omitempty"`
	// OpenStackCCM is the OpenStack cloud controller manager (nodes and Octavia load balancers).
	OpenStackCCM *OpenStackCCM `json:"openstack-ccm,omitempty"`
	// OpenStackCSI is the OpenStack Cinder CSI driver.
	OpenStackCSI *OpenStackCSI `json:"openstack-csi,omitempty"`
	// OpenTelemetryKubeStack is the OpenTelemetry operator and collectors for the cluster.
	OpenTelemetryKubeStack *OpenTelemetryKubeStack `json:"opentelemetry-kube-stack,omitempty"`
	// PostgresOperator is the Zalando Postgres operator.
	PostgresOperator *PostgresOperator `json:"postgres-operator,omitempty"`
	// RBACManager is the FairwindsOps RBAC manager and the cluster's role bindings.
	RBACManager *RBACManager `json:"rbac-manager,omitempty"`
	// SealedSecrets is the Bitnami Sealed Secrets controller.
	SealedSecrets *SealedSecrets `json:"sealed-secrets,omitempty"`
	// Tempo is the Tempo trace store.
	Tempo *Tempo `json:"tempo,omitempty"`
	// Velero is Velero backup and restore of cluster resources and volumes.
	Velero *Velero `json:"velero,omitempty"`
	// VSphereCSI is the vSphere CSI driver.
	VSphereCSI *VSphereCSI `json:"vsphere-csi,omitempty"`
	// WeaveGitOps is the Weave GitOps dashboard for Flux, rendered from the cluster repo.
	WeaveGitOps *WeaveGitOps `json:"weave-gitops,omitempty"`
}

// GatewayAPICRDs reports whether the cluster gets the Gateway API CRDs:
// whether gateway-api, Envoy Gateway's chart, which bundles them, is on.
func (s *Services) GatewayAPICRDs() bool { return s.GatewayAPI != nil && s.GatewayAPI.Enabled }

// CertManagerCRDs reports whether the cluster gets cert-manager's CRDs
// (Certificate, Issuer): whether cert-manager is on.
func (s *Services) CertManagerCRDs() bool { return s.CertManager != nil && s.CertManager.Enabled }

// ManagedServices turns provider-managed services on and configures them.
type ManagedServices struct {
	// AlertProxy opens a Rackspace Core ticket, through Watchman, for each alert Alertmanager sends it.
	AlertProxy *AlertProxy `json:"alert-proxy,omitempty"`
}

// StorageBackend is where a service keeps its data: local volumes or an object store.
type StorageBackend string

// The storage backends of loki, mimir, tempo and harbor.
const (
	// StorageFilesystem keeps data on the service's persistent volumes.
	StorageFilesystem StorageBackend = "filesystem"
	// StorageS3 keeps data in an S3-compatible bucket.
	StorageS3 StorageBackend = "s3"
	// StorageSwift keeps data in an OpenStack Swift container.
	StorageSwift StorageBackend = "swift"
)

// CertIssuer is the kind of ClusterIssuer cert-manager is configured with.
type CertIssuer string

// The ClusterIssuers cert-manager can be configured with.
const (
	// CertIssuerNone installs cert-manager without a ClusterIssuer.
	CertIssuerNone CertIssuer = "none"
	// CertIssuerACME issues publicly trusted certificates from an ACME server such as Let's Encrypt.
	CertIssuerACME CertIssuer = "acme"
	// CertIssuerSelfSigned signs each certificate with its own key: internal services and tests.
	CertIssuerSelfSigned CertIssuer = "selfsigned"
	// CertIssuerCA signs certificates with a CA whose certificate and key are in an existing Secret.
	CertIssuerCA CertIssuer = "ca"
)

// DNSProvider is the DNS service cert-manager uses to solve ACME DNS-01 challenges.
type DNSProvider string

// The DNS-01 providers cert-manager is configured for.
const (
	// DNSProviderNone solves challenges with HTTP-01 through the gateway instead of DNS-01.
	DNSProviderNone DNSProvider = "none"
	// DNSProviderCloudflare solves DNS-01 challenges with a Cloudflare API token.
	DNSProviderCloudflare DNSProvider = "cloudflare"
	// DNSProviderRoute53 solves DNS-01 challenges in AWS Route 53.
	DNSProviderRoute53 DNSProvider = "route53"
	// DNSProviderDesignate solves DNS-01 challenges in OpenStack Designate.
	DNSProviderDesignate DNSProvider = "designate"
)

// ListenerProtocol is the protocol of a Gateway listener.
type ListenerProtocol string

// The Gateway listener protocols.
const (
	// ListenerHTTP is plain HTTP.
	ListenerHTTP ListenerProtocol = "HTTP"
	// ListenerHTTPS is HTTP over TLS terminated at the gateway.
	ListenerHTTPS ListenerProtocol = "HTTPS"
)

// CalicoEncapsulation is how Calico encapsulates pod traffic between nodes.
type CalicoEncapsulation string

// The Calico IP pool encapsulation modes.
const (
	// EncapsulationVXLAN encapsulates all pod traffic in VXLAN.
	EncapsulationVXLAN CalicoEncapsulation = "VXLAN"
	// EncapsulationVXLANCrossSubnet encapsulates in VXLAN only across subnets.
	EncapsulationVXLANCrossSubnet CalicoEncapsulation = "VXLANCrossSubnet"
	// EncapsulationIPIP encapsulates all pod traffic in IP-in-IP.
	EncapsulationIPIP CalicoEncapsulation = "IPIP"
	// EncapsulationIPIPCrossSubnet encapsulates in IP-in-IP only across subnets.
	EncapsulationIPIPCrossSubnet CalicoEncapsulation = "IPIPCrossSubnet"
	// EncapsulationNone routes pod traffic unencapsulated (BGP or a flat network).
	EncapsulationNone CalicoEncapsulation = "None"
)

// VeleroProvider is the object-store plugin Velero writes backups with.
type VeleroProvider string

// The Velero object-store providers. Azure's and GCP's plugins need
// credentials that secrets.services.velero, S3 access keys, cannot hold.
const (
	// VeleroProviderAWS is the AWS plugin; it serves any S3-compatible store.
	VeleroProviderAWS VeleroProvider = "aws"
)

// TempoStorage is where Tempo keeps trace blocks: tempo-distributed has no
// Swift backend, so it is StorageBackend without swift.
type TempoStorage string

// The storage backends of tempo.
const (
	// TempoStorageFilesystem keeps trace blocks on Tempo's persistent volumes.
	TempoStorageFilesystem TempoStorage = "filesystem"
	// TempoStorageS3 keeps trace blocks in an S3-compatible bucket (Swift's S3 API included).
	TempoStorageS3 TempoStorage = "s3"
)

// IstioProfile is the Istio installation profile.
type IstioProfile string

// The Istio installation profiles the base's charts can install. The
// charts (1.28.3) take a profile only from their files/profile-<name>.yaml
// and fail on any other name; they have no file for default, which is
// their own defaults, nor for minimal. Ambient needs the istio-cni and
// ztunnel charts, which the base does not install.
const (
	// IstioProfileDefault is the charts' own defaults, for production.
	IstioProfileDefault IstioProfile = "default"
	// IstioProfileDemo enables extra tracing and access logs, for evaluation.
	IstioProfileDemo IstioProfile = "demo"
)

// OctaviaProvider is the Octavia load-balancer provider the OpenStack CCM requests.
type OctaviaProvider string

// The Octavia load-balancer providers.
const (
	// OctaviaAmphora runs each load balancer in amphora VMs.
	OctaviaAmphora OctaviaProvider = "amphora"
	// OctaviaOVN implements load balancers in OVN, without VMs (layer 4 only).
	OctaviaOVN OctaviaProvider = "ovn"
)

// Calico is the Calico CNI. It has no base directory: the overlay carries its manifests.
type Calico struct {
	ServiceCommon
	ownOverlay
	// PodCIDR is the IPv4 CIDR of the default IP pool, such as 10.244.0.0/16; it must match the cluster's pod network.
	PodCIDR string `json:"pod_cidr,omitempty" format:"cidr" required_when:"enabled"`
	// Encapsulation of pod traffic between nodes: VXLAN, VXLANCrossSubnet, IPIP, IPIPCrossSubnet or None.
	Encapsulation CalicoEncapsulation `json:"encapsulation,omitempty" default:"VXLAN"`
	// MTU of pod interfaces in bytes; unset lets Calico detect it from the host.
	MTU *int `json:"mtu,omitempty"`
	// BlockSize is the prefix length of the per-node address blocks carved from pod_cidr (20 to 32).
	BlockSize int `json:"block_size,omitempty" default:"26"`
}

// CertManager is cert-manager and, when issuer is not none, the ClusterIssuer
// other services (the gateway, harbor) get their certificates from.
type CertManager struct {
	Sourced
	// Issuer is the ClusterIssuer rendered for the cluster: none (cert-manager alone), acme, selfsigned or ca.
	Issuer CertIssuer `json:"issuer,omitempty" default:"none"`
	// IssuerName is the name of that ClusterIssuer, which the gateway and harbor reference; empty means letsencrypt for acme, selfsigned for selfsigned and ca for ca.
	IssuerName string `json:"issuer_name,omitempty" format:"dns-label"`
	// CASecretName names the Secret in cert-manager's namespace holding the CA's certificate and key (tls.crt, tls.key).
	CASecretName string `json:"ca_secret_name,omitempty" format:"dns-subdomain" required_when:"issuer=ca"`
	// ACMEEmail is the contact address of the ACME account (optional: Let's Encrypt no longer mails expiry notices).
	ACMEEmail string `json:"acme_email,omitempty" format:"email"`
	// ACMEServer is the ACME directory URL; use the Let's Encrypt staging URL for tests.
	ACMEServer string `json:"acme_server,omitempty" default:"https://acme-v02.api.letsencrypt.org/directory" format:"url"`
	// DNSProvider solves ACME challenges with DNS-01 through cloudflare, route53 or designate; none answers them with HTTP-01 through the cluster gateway, which cannot issue wildcards.
	DNSProvider DNSProvider `json:"dns_provider,omitempty" default:"none"`
	// Route53Region is the AWS region of the Route 53 API, such as us-east-1.
	Route53Region string `json:"route53_region,omitempty" required_when:"issuer=acme,dns_provider=route53" format:"aws-region"`
	// Route53HostedZoneID is the Route 53 hosted zone holding base_domain, when dns_provider is route53; empty lets cert-manager find it.
	Route53HostedZoneID string `json:"route53_hosted_zone_id,omitempty"`
	// DesignateAuthURL is the Keystone URL of Designate, such as https://keystone.example.com:5000/v3.
	DesignateAuthURL string `json:"designate_auth_url,omitempty" format:"url" required_when:"issuer=acme,dns_provider=designate,!dns_existing_secret"`
	// DesignateRegion is the OpenStack region of Designate, when dns_provider is designate.
	DesignateRegion string `json:"designate_region,omitempty"`
	// DNSExistingSecret names an existing Secret in cert-manager's namespace holding the DNS-01 credentials, instead of secrets.services.cert-manager: cloudflare, key api-token; route53, keys access-key-id and secret-access-key; designate, the webhook's environment (OS_AUTH_URL, OS_AUTH_TYPE=v3applicationcredential, OS_APPLICATION_CREDENTIAL_ID, OS_APPLICATION_CREDENTIAL_SECRET and optionally OS_REGION_NAME).
	DNSExistingSecret string `json:"dns_existing_secret,omitempty" format:"dns-subdomain"`
}

// EtcdBackup is a scheduled snapshot of etcd to an S3-compatible bucket. It has no base directory.
type EtcdBackup struct {
	ServiceCommon
	ownOverlay
	// Schedule is the cron expression of the snapshot CronJob, in UTC.
	Schedule string `json:"schedule,omitempty" default:"0 */6 * * *" format:"cron"`
	// Bucket is the S3 bucket the etcd snapshots are written to.
	Bucket string `json:"bucket,omitempty" required_when:"enabled" format:"s3-bucket"`
	// Region is the S3 region of the bucket.
	Region string `json:"region,omitempty"`
	// Endpoint is the URL of an S3-compatible store; empty means AWS S3.
	Endpoint string `json:"endpoint,omitempty" format:"url"`
	// RetentionCount is how many snapshots are kept in the bucket; older ones are deleted.
	RetentionCount int `json:"retention_count,omitempty" default:"28"`
	// ExistingSecret names an existing Secret in etcd-backup's namespace holding the S3 credentials as environment variables (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), instead of secrets.services.etcd-backup.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
}

// ExternalSnapshotter is the CSI external-snapshotter. It has only the common fields.
type ExternalSnapshotter struct {
	Sourced
}

// Gateway is the cluster's Gateway API Gateway, GatewayClass and EnvoyProxy for
// Envoy Gateway, rendered into the service's namespace. It has no base directory.
type Gateway struct {
	ServiceCommon
	ownOverlay
	// Name of the Gateway object that HTTPRoutes attach to.
	Name string `json:"name,omitempty" default:"opencenter-gateway"`
	// GatewayClassName is the GatewayClass of the Gateway, served by Envoy Gateway.
	GatewayClassName string `json:"gateway_class_name,omitempty" default:"envoy-gateway"`
	// Issuer is the cert-manager ClusterIssuer that issues the HTTPS listeners' certificates; empty means cert-manager's issuer, when it has one and tls_secret_name is empty.
	Issuer string `json:"issuer,omitempty" format:"dns-label"`
	// TLSSecretName names a Secret in the gateway's namespace you provide, holding the certificate of the default https listener (*.<base_domain>); cert-manager manages it only when issuer is set too.
	TLSSecretName string `json:"tls_secret_name,omitempty" format:"dns-subdomain"`
	// LoadBalancerIP requests a fixed address for the gateway's LoadBalancer Service, such as one from a MetalLB pool.
	LoadBalancerIP string `json:"load_balancer_ip,omitempty"`
	// Listeners are the ports, protocols and hostnames the Gateway accepts traffic on. Empty means: http on port 80 for *.<cluster.base_domain> (for every hostname without base_domain), and, with base_domain and a certificate (an issuer or tls_secret_name), https on 443 for the same wildcard, its certificate in tls_secret_name or <name>-tls.
	Listeners []GatewayListener `json:"listeners,omitempty"`

	// derivedListeners records that Listeners are the defaults, for messages.
	derivedListeners bool
	// httpsRedirect is derived from the listeners and the login pages published.
	httpsRedirect *HTTPSRedirect
}

// HTTPSRedirect is where the Gateway answers plain HTTP to the login pages
// it publishes with a redirect to HTTPS, so that no login is typed into a
// page served in clear text: the login pages' routes attach to port 443
// alone.
type HTTPSRedirect struct {
	// Ports are the ports of the HTTP listeners that match one of the names, sorted.
	Ports []int
	// Hostnames are the login pages' names, sorted, never empty.
	Hostnames []string
}

// HTTPSRedirect returns the redirect to HTTPS of plain HTTP to the login
// pages published on the Gateway, or nil when no HTTP listener matches
// one.
func (s *Gateway) HTTPSRedirect() *HTTPSRedirect { return s.httpsRedirect }

// ProvidedSecrets names the certificates of the HTTPS listeners when the
// gateway has no issuer: you provide them.
func (s *Gateway) ProvidedSecrets() []string {
	if s.Issuer != "" {
		return nil
	}
	var names []string
	for _, l := range s.Listeners {
		if l.TLSSecretName != "" {
			names = append(names, l.TLSSecretName)
		}
	}
	return names
}

// DerivedListeners reports whether the listeners are the defaults derived
// from the cluster, not the config's.
func (s *Gateway) DerivedListeners() bool { return s.derivedListeners }

// GatewayListener is one listener of the Gateway.
type GatewayListener struct {
	// Name of the listener, a DNS-1123 label unique within the Gateway.
	Name string `json:"name"`
	// Hostname is the name the listener matches, exact or wildcard such as *.dev.example.com (an HTTPS listener's certificate is issued for it); empty matches every name.
	Hostname string `json:"hostname,omitempty" format:"wildcard-hostname" required_when:"protocol=HTTPS"`
	// Port the listener accepts connections on, 1 to 65535.
	Port int `json:"port"`
	// Protocol of the listener: HTTP or HTTPS.
	Protocol ListenerProtocol `json:"protocol"`
	// TLSSecretName names the Secret holding the listener's certificate: cert-manager writes it when the gateway has an issuer, else you provide it.
	TLSSecretName string `json:"tls_secret_name,omitempty" format:"dns-subdomain" required_when:"protocol=HTTPS"`
}

// GatewayAPI is Envoy Gateway and the Gateway API CRDs. It has only the common fields.
type GatewayAPI struct {
	Sourced
}

// Harbor is the Harbor container registry.
type Harbor struct {
	Sourced
	// Hostname is the registry's external DNS name, such as harbor.dev.example.com (its externalURL is https://<hostname>). With the cluster Gateway enabled Harbor is published there, over HTTPS alone (plain HTTP redirected) and with TLS at the Gateway; without it the name is yours to publish.
	Hostname string `json:"hostname,omitempty" format:"dns-subdomain" required_when:"enabled"`
	// EmitCertificate renders a cert-manager Certificate for hostname, with which Harbor terminates TLS itself; only without the cluster Gateway, which otherwise terminates TLS for Harbor.
	EmitCertificate bool `json:"emit_certificate,omitempty"`
	// Issuer is the cert-manager ClusterIssuer of that Certificate; empty means cert-manager's issuer.
	Issuer string `json:"issuer,omitempty" format:"dns-label"`
	// StorageClass of Harbor's persistent volumes; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// StorageSize of the registry volume when storage is filesystem, as a Kubernetes quantity.
	StorageSize string `json:"storage_size,omitempty" default:"100Gi" format:"quantity"`
	// Storage is where image layers are kept: filesystem, s3 or swift.
	Storage StorageBackend `json:"storage,omitempty" default:"filesystem"`
	// Bucket is the bucket (or Swift container) of image layers. With s3 it is an S3 bucket name (3 to 63 letters, digits, '.', '-' or '_'), with swift a container name (no '/', at most 256 bytes).
	Bucket string `json:"bucket,omitempty" required_when:"storage=s3|swift"`
	// Region is the object store region of the bucket; with swift, needed only when the cloud has several regions.
	Region string `json:"region,omitempty" required_when:"storage=s3"`
	// Endpoint is the URL of an S3-compatible store (empty means AWS S3), or with swift the Keystone v3 auth URL, such as https://keystone.example.com:5000/v3.
	Endpoint string `json:"endpoint,omitempty" format:"url" required_when:"storage=swift"`
	// SwiftUsername is the Keystone user the registry authenticates to Swift as (its password is secrets.services.harbor.swift_password): Harbor's registry cannot use application credentials.
	SwiftUsername string `json:"swift_username,omitempty" required_when:"storage=swift"`
	// SwiftProject is the Keystone project (tenant) owning the Swift container.
	SwiftProject string `json:"swift_project,omitempty" required_when:"storage=swift"`
	// SwiftDomain is the Keystone domain of swift_username and swift_project.
	SwiftDomain string `json:"swift_domain,omitempty" default:"Default"`
	// AdminExistingSecret names an existing Secret in harbor's namespace holding the admin password (key HARBOR_ADMIN_PASSWORD), instead of secrets.services.harbor.admin_password.
	AdminExistingSecret string `json:"admin_existing_secret,omitempty" format:"dns-subdomain"`
	// SecretKeyExistingSecret names an existing Secret in harbor's namespace holding the key Harbor encrypts the credentials it stores with (key secretKey, 16 bytes), instead of secrets.services.harbor.secret_key.
	SecretKeyExistingSecret string `json:"secret_key_existing_secret,omitempty" format:"dns-subdomain"`
	// ValuesExistingSecret names an existing Secret in harbor's namespace whose key values.yaml holds the chart values of Harbor's internal passwords ({database: {internal: {password: ...}}, registry: {credentials: {password: ...}}}), instead of secrets.services.harbor.database_password and registry_password.
	ValuesExistingSecret string `json:"values_existing_secret,omitempty" format:"dns-subdomain"`
	// ObjectStoreExistingSecret names an existing Secret in harbor's namespace holding the object store credentials (s3: keys REGISTRY_STORAGE_S3_ACCESSKEY and REGISTRY_STORAGE_S3_SECRETKEY; swift: REGISTRY_STORAGE_SWIFT_PASSWORD), instead of secrets.services.harbor.
	ObjectStoreExistingSecret string `json:"object_store_existing_secret,omitempty" format:"dns-subdomain"`
	// TrivyEnabled deploys the Trivy vulnerability scanner.
	TrivyEnabled *bool `json:"trivy_enabled,omitempty" default:"true"`
	// InternalNetworkPolicy renders a NetworkPolicy that lets only Harbor's own pods reach its internal database, Redis and Trivy adapter: Redis and the adapter's API take no credentials, and core keeps its login sessions in Redis. It needs a CNI that enforces NetworkPolicy, such as Calico; set false if something outside Harbor must reach them.
	InternalNetworkPolicy *bool `json:"internal_network_policy,omitempty" default:"true"`
}

// Headlamp is the Headlamp Kubernetes web UI.
type Headlamp struct {
	Sourced
	// Hostname is the UI's external DNS name, published through the cluster Gateway over HTTPS alone (plain HTTP is redirected), since its login takes a token or OIDC; empty keeps it cluster-internal.
	Hostname string `json:"hostname,omitempty" format:"dns-subdomain"`
	// OIDCEnabled makes users log in with OIDC; the client secret is in secrets.services.headlamp.
	OIDCEnabled bool `json:"oidc_enabled,omitempty"`
	// OIDCIssuerURL is the OIDC issuer, such as https://auth.example.com/realms/opencenter.
	OIDCIssuerURL string `json:"oidc_issuer_url,omitempty" format:"url" required_when:"oidc_enabled,!oidc_existing_secret"`
	// OIDCClientID is the OIDC client Headlamp authenticates as.
	OIDCClientID string `json:"oidc_client_id,omitempty" default:"headlamp"`
	// OIDCExistingSecret names an existing Secret in headlamp's namespace holding the OIDC client as environment variables (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ISSUER_URL, OIDC_SCOPES and optionally OIDC_CALLBACK_URL), instead of the one rendered from oidc_issuer_url, oidc_client_id and secrets.services.headlamp.
	OIDCExistingSecret string `json:"oidc_existing_secret,omitempty" format:"dns-subdomain"`
}

// Istio is the Istio service mesh.
type Istio struct {
	Sourced
	// Profile is the installation profile: default (the charts' own defaults, for production) or demo (access logs and more tracing, for evaluation); without ingress_gateway the mesh is istiod alone. Ambient mode needs the istio-cni and ztunnel charts, which the base does not install.
	Profile IstioProfile `json:"profile,omitempty" default:"default"`
	// IngressGateway deploys the istio-gateway ingress deployment.
	IngressGateway bool `json:"ingress_gateway,omitempty"`
}

// KafkaCluster is the Strimzi Kafka operator and one Kafka cluster; the cluster
// CR has no base directory.
type KafkaCluster struct {
	Sourced
	// ClusterName is the name of the Kafka custom resource, a DNS-1123 label.
	ClusterName string `json:"cluster_name,omitempty" default:"kafka"`
	// KafkaVersion is the Kafka version the operator deploys, one the Strimzi operator of the base release runs (4.0.0 to 4.1.1 for release 2026.01); empty means the operator's default.
	KafkaVersion string `json:"kafka_version,omitempty"`
	// Replicas is the number of Kafka broker nodes.
	Replicas *int `json:"replicas,omitempty" default:"3"`
	// StorageSize of each broker's volume, as a Kubernetes quantity.
	StorageSize string `json:"storage_size,omitempty" default:"100Gi" format:"quantity"`
	// StorageClass of the broker volumes; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
}

// Keycloak is the Keycloak identity provider, its operator and PostgreSQL database.
type Keycloak struct {
	Sourced
	// Hostname is Keycloak's external DNS name, such as auth.example.com; Keycloak's frontend URL is https://<hostname> unless frontend_url says otherwise.
	Hostname string `json:"hostname,omitempty" format:"dns-subdomain" required_when:"gateway_route"`
	// Realm names the realm of the platform's users and OIDC clients, which realm_import creates; its issuer is https://<hostname>/realms/<realm>.
	Realm string `json:"realm,omitempty" default:"opencenter" format:"dns-label"`
	// RealmImport creates the realm with a KeycloakRealmImport, if Keycloak has no realm of that name (the operator never changes one that exists): the groups the base's OIDC RBAC binds (cluster-admins, read-only, observability, namespace-admins, security-team, platform-team, k8s-ops), a groups claim in its tokens, the public client oidc_client_id for kubectl logins (kubelogin's redirects, http://localhost:8000 and :18000), and Headlamp's client when Headlamp logs in with OIDC against this realm. It creates no user: add them in Keycloak. Headlamp's client is public, as the import cannot read secrets.services.headlamp: Keycloak then does not check the secret Headlamp sends; make the client confidential in Keycloak with that secret to have it checked.
	RealmImport *bool `json:"realm_import,omitempty" default:"true"`
	// FrontendURL overrides the URL Keycloak puts in tokens and redirects; empty means https://<hostname>.
	FrontendURL string `json:"frontend_url,omitempty" format:"url"`
	// Instances is the number of Keycloak pods.
	Instances *int `json:"instances,omitempty" default:"1"`
	// MaxReplicas enables a HorizontalPodAutoscaler scaling from instances up to this many pods; unset means no autoscaling.
	MaxReplicas *int `json:"max_replicas,omitempty"`
	// StorageClass of the PostgreSQL volume; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// DBStorageSize of the PostgreSQL volume, as a Kubernetes quantity.
	DBStorageSize string `json:"db_storage_size,omitempty" default:"10Gi" format:"quantity"`
	// BackupEnabled adds a CronJob dumping the Keycloak database to a volume.
	BackupEnabled bool `json:"backup_enabled,omitempty"`
	// BackupSchedule is the cron expression of the database backup, in UTC.
	BackupSchedule string `json:"backup_schedule,omitempty" default:"0 2 * * *" format:"cron"`
	// OperatorManualApproval keeps the base's installPlanApproval Manual on the Keycloak operator's OLM Subscription: OLM then installs the operator (the base's startingCSV, keycloak-operator.v26.4.2 at 2026.01), and each upgrade, only once someone approves its InstallPlan, and Keycloak waits until then. Unset, the overlay sets Automatic: OLM installs the starting version, then follows the Subscription's channel.
	OperatorManualApproval bool `json:"operator_manual_approval,omitempty"`
	// GatewayRoute exposes Keycloak through the cluster Gateway with an HTTPRoute for hostname, served over HTTPS on port 443 (alone, plain HTTP redirected, unless frontend_url is elsewhere); Keycloak then reads the scheme from the Gateway's X-Forwarded headers (proxy.headers xforwarded), and the operator creates no Ingress of its own.
	GatewayRoute bool `json:"gateway_route,omitempty"`
	// OIDCClientID names the realm's OIDC client the Kubernetes API server trusts for user logins, which realm_import creates (the API server's OIDC flags, which name it, are set where the cluster is built).
	OIDCClientID string `json:"oidc_client_id,omitempty" default:"kubernetes"`
	// AdminExistingSecret names an existing Secret in keycloak's namespace holding the bootstrap admin's login (keys username and password), instead of secrets.services.keycloak.admin_password; the Keycloak CR's bootstrapAdmin reads it.
	AdminExistingSecret string `json:"admin_existing_secret,omitempty" format:"dns-subdomain"`
}

// AlertmanagerAuth is how the cluster Gateway guards the Alertmanager it
// publishes.
type AlertmanagerAuth string

// The ways the published Alertmanager is guarded.
const (
	// AlertmanagerAuthBasic asks for HTTP basic authentication.
	AlertmanagerAuthBasic AlertmanagerAuth = "basic"
	// AlertmanagerAuthNone lets every request through.
	AlertmanagerAuthNone AlertmanagerAuth = "none"
)

// KubePrometheusStack is Prometheus, Alertmanager and Grafana.
type KubePrometheusStack struct {
	ServiceCommon
	observabilityMember
	// GrafanaHostname is Grafana's external DNS name, published through the cluster Gateway over HTTPS alone (plain HTTP is redirected); empty keeps it cluster-internal.
	GrafanaHostname string `json:"grafana_hostname,omitempty" format:"dns-subdomain"`
	// AlertmanagerHostname is Alertmanager's external DNS name, published through the cluster Gateway over HTTPS alone (plain HTTP is redirected); empty keeps it cluster-internal.
	AlertmanagerHostname string `json:"alertmanager_hostname,omitempty" format:"dns-subdomain"`
	// AlertmanagerAuth is how the cluster Gateway guards the Alertmanager it publishes, which takes no login of its own and lets anyone who reaches it silence alerts or send them: basic (HTTP basic authentication with secrets.services.kube-prometheus-stack.alertmanager_htpasswd, through an Envoy Gateway SecurityPolicy) or none (open to whoever reaches the Gateway, for one that only a private network reaches).
	AlertmanagerAuth AlertmanagerAuth `json:"alertmanager_auth,omitempty" default:"basic"`
	// AlertmanagerHtpasswdExistingSecret names an existing Secret in the service's namespace holding the logins of the published Alertmanager (key .htpasswd, in the form of alertmanager_htpasswd), instead of secrets.services.kube-prometheus-stack.alertmanager_htpasswd.
	AlertmanagerHtpasswdExistingSecret string `json:"alertmanager_htpasswd_existing_secret,omitempty" format:"dns-subdomain"`
	// PrometheusRetention is how long Prometheus keeps samples, a Prometheus duration such as 15d.
	PrometheusRetention string `json:"prometheus_retention,omitempty" default:"15d" format:"retention"`
	// PrometheusStorageSize of each Prometheus volume, as a Kubernetes quantity.
	PrometheusStorageSize string `json:"prometheus_storage_size,omitempty" default:"50Gi" format:"quantity"`
	// PrometheusReplicas is the number of Prometheus pods; unset means the chart's default.
	PrometheusReplicas *int `json:"prometheus_replicas,omitempty"`
	// GrafanaStorageSize of Grafana's volume, as a Kubernetes quantity.
	GrafanaStorageSize string `json:"grafana_storage_size,omitempty" default:"10Gi" format:"quantity"`
	// StorageClass of the Prometheus, Alertmanager and Grafana volumes; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// RemoteWriteURL is a Prometheus remote-write endpoint, such as the cluster's Mimir at http://observability-mimir-gateway.observability.svc/api/v1/push; empty disables remote write.
	RemoteWriteURL string `json:"remote_write_url,omitempty" format:"url"`
	// GrafanaExistingSecret names an existing Secret in the service's namespace holding Grafana's admin login (keys admin-user and admin-password), instead of secrets.services.kube-prometheus-stack.grafana_admin_password. With neither, the Grafana chart generates a random password into its own Secret.
	GrafanaExistingSecret string `json:"grafana_existing_secret,omitempty" format:"dns-subdomain"`
}

// Kyverno is the Kyverno policy engine and its default policy ruleset.
type Kyverno struct {
	Sourced
	// DefaultRuleset deploys the base repo's default ClusterPolicies.
	DefaultRuleset *bool `json:"default_ruleset,omitempty" default:"true"`
	// AdmissionReplicas is the number of admission controller pods, instead of the base's autoscaling from 3 to 10.
	AdmissionReplicas *int `json:"admission_replicas,omitempty"`
	// ExcludedNamespaces are namespaces the policies do not apply to, in addition to the chart's.
	ExcludedNamespaces []string `json:"excluded_namespaces,omitempty" format:"dns-label"`
}

// Loki is the Loki log store.
type Loki struct {
	ServiceCommon
	observabilityMember
	// Storage is where log chunks are kept: filesystem, s3 or swift.
	Storage StorageBackend `json:"storage,omitempty" default:"filesystem"`
	// Bucket is the bucket (or Swift container) of log chunks. With s3 it is an S3 bucket name (3 to 63 letters, digits, '.', '-' or '_'), with swift a container name (no '/', at most 256 bytes).
	Bucket string `json:"bucket,omitempty" required_when:"storage=s3|swift"`
	// Region is the object store region of the bucket.
	Region string `json:"region,omitempty" required_when:"storage=s3|swift"`
	// Endpoint is the URL of an S3-compatible store (empty means AWS S3), or with swift the Keystone auth URL of the Swift store, such as https://keystone.example.com:5000/v3.
	Endpoint string `json:"endpoint,omitempty" format:"url" required_when:"storage=swift"`
	// ExistingSecret names an existing Secret in the service's namespace holding the object store credentials as environment variables (s3: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; swift: OS_APPLICATION_CREDENTIAL_ID and OS_APPLICATION_CREDENTIAL_SECRET), instead of secrets.services.loki.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
	// Retention is how long logs are kept, a Prometheus duration such as 30d or 744h.
	Retention string `json:"retention,omitempty" default:"30d" format:"retention"`
	// Replicas is the number of Loki pods.
	Replicas int `json:"replicas,omitempty" default:"1"`
	// StorageClass of Loki's volumes; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// StorageSize of each Loki volume, as a Kubernetes quantity.
	StorageSize string `json:"storage_size,omitempty" default:"10Gi" format:"quantity"`
}

// Longhorn is Longhorn distributed block storage.
type Longhorn struct {
	Sourced
	// DefaultReplicaCount is how many replicas each Longhorn volume has, 1 to 20.
	DefaultReplicaCount int `json:"default_replica_count,omitempty" default:"3"`
	// DataPath is the host directory on each node where Longhorn stores volume data.
	DataPath string `json:"data_path,omitempty" default:"/var/lib/longhorn"`
	// DefaultStorageClass makes the longhorn StorageClass the cluster default.
	DefaultStorageClass bool `json:"default_storage_class,omitempty"`
	// Hostname is the Longhorn UI's external DNS name, published through the cluster Gateway over HTTPS alone (plain HTTP is redirected), behind the login of ui_auth, since the UI has none of its own and lets whoever reaches it delete volumes; empty keeps it cluster-internal.
	Hostname string `json:"hostname,omitempty" format:"dns-subdomain"`
	// UIAuth is how the cluster Gateway guards the Longhorn UI it publishes: basic (HTTP basic authentication with secrets.services.longhorn.ui_htpasswd, through an Envoy Gateway SecurityPolicy) or none (open to whoever reaches the Gateway, for one that only a private network reaches).
	UIAuth LonghornUIAuth `json:"ui_auth,omitempty" default:"basic"`
	// UIHtpasswdExistingSecret names an existing Secret in longhorn's namespace holding the logins of the published UI (key .htpasswd, in the form of ui_htpasswd), instead of secrets.services.longhorn.ui_htpasswd.
	UIHtpasswdExistingSecret string `json:"ui_htpasswd_existing_secret,omitempty" format:"dns-subdomain"`
}

// LonghornUIAuth is how the cluster Gateway guards the Longhorn UI it
// publishes.
type LonghornUIAuth string

// The ways the published Longhorn UI is guarded.
const (
	// LonghornUIAuthBasic asks for HTTP basic authentication.
	LonghornUIAuthBasic LonghornUIAuth = "basic"
	// LonghornUIAuthNone lets every request through.
	LonghornUIAuthNone LonghornUIAuth = "none"
)

// MetalLB is the MetalLB load-balancer.
type MetalLB struct {
	Sourced
	// IPPools are the address pools {name, addresses} LoadBalancer Services get their addresses from.
	IPPools []MetalLBIPPool `json:"ip_pools,omitempty" required_when:"enabled"`
	// L2Advertisement announces every pool with ARP/NDP from the nodes (layer 2 mode).
	L2Advertisement *bool `json:"l2_advertisement,omitempty" default:"true"`
}

// MetalLBIPPool is one MetalLB IPAddressPool.
type MetalLBIPPool struct {
	// Name of the IPAddressPool, a DNS-1123 label.
	Name string `json:"name"`
	// Addresses are CIDRs such as 10.0.0.0/28 or ranges such as 10.0.0.10-10.0.0.20.
	Addresses []string `json:"addresses"`
	// AutoAssign lets Services without an explicit pool get addresses from this one; unset means MetalLB's default (true).
	AutoAssign *bool `json:"auto_assign,omitempty"`
}

// Mimir is the Mimir long-term metrics store.
type Mimir struct {
	ServiceCommon
	observabilityMember
	// Storage is where metric blocks are kept: filesystem, s3 or swift.
	Storage StorageBackend `json:"storage,omitempty" default:"filesystem"`
	// Bucket is the bucket (or Swift container) of metric blocks. With s3 it is an S3 bucket name (3 to 63 letters, digits, '.', '-' or '_'), with swift a container name (no '/', at most 256 bytes).
	Bucket string `json:"bucket,omitempty" required_when:"storage=s3|swift"`
	// Region is the object store region of the bucket.
	Region string `json:"region,omitempty" required_when:"storage=s3|swift"`
	// Endpoint is the URL of an S3-compatible store (empty means AWS S3), or with swift the Keystone auth URL of the Swift store, such as https://keystone.example.com:5000/v3.
	Endpoint string `json:"endpoint,omitempty" format:"url" required_when:"storage=swift"`
	// ExistingSecret names an existing Secret in the service's namespace holding the object store credentials as environment variables (s3: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; swift: OS_APPLICATION_CREDENTIAL_ID and OS_APPLICATION_CREDENTIAL_SECRET), instead of secrets.services.mimir.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
	// ValuesExistingSecret names, with storage filesystem, an existing Secret in the service's namespace whose key values.yaml holds the chart value of MinIO's root password ({minio: {rootPassword: ...}}), instead of secrets.services.mimir.minio_root_password.
	ValuesExistingSecret string `json:"values_existing_secret,omitempty" format:"dns-subdomain"`
	// Retention is how long metric blocks are kept, a Prometheus duration such as 90d; 0 keeps them forever.
	Retention string `json:"retention,omitempty" default:"30d" format:"retention"`
	// Replicas is the number of ingester pods.
	Replicas int `json:"replicas,omitempty" default:"1"`
	// StorageClass of Mimir's volumes; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// StorageSize of each Mimir volume, as a Kubernetes quantity.
	StorageSize string `json:"storage_size,omitempty" default:"10Gi" format:"quantity"`
}

// OLM is the Operator Lifecycle Manager. It has only the common fields.
type OLM struct {
	Sourced
}

// OpenStackCCM is the OpenStack cloud controller manager.
type OpenStackCCM struct {
	Sourced
	// AuthURL is the Keystone v3 URL, such as https://keystone.example.com:5000/v3.
	AuthURL string `json:"auth_url,omitempty" format:"url" required_when:"enabled,!existing_secret"`
	// Region is the OpenStack region of the cluster.
	Region string `json:"region,omitempty" required_when:"enabled,!existing_secret"`
	// FloatingNetworkID is the ID of the external network Octavia load balancers get floating IPs from (the cloud controller manager takes no name).
	FloatingNetworkID string `json:"floating_network_id,omitempty" format:"uuid"`
	// SubnetID is the ID of the subnet the load balancers' VIPs are created on, the nodes' subnet.
	SubnetID string `json:"subnet_id,omitempty" format:"uuid"`
	// LBProvider is the Octavia provider of load balancers: amphora or ovn.
	LBProvider OctaviaProvider `json:"lb_provider,omitempty" default:"amphora"`
	// ExistingSecret names an existing Secret in openstack-ccm's namespace holding the whole cloud.conf of the cloud controller manager (key cloud.conf), instead of the one rendered from auth_url, region and secrets.services.openstack-ccm.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
}

// OpenStackCSI is the OpenStack Cinder CSI driver.
type OpenStackCSI struct {
	Sourced
	// AuthURL is the Keystone v3 URL, such as https://keystone.example.com:5000/v3.
	AuthURL string `json:"auth_url,omitempty" format:"url" required_when:"enabled,!existing_secret"`
	// Region is the OpenStack region of the cluster.
	Region string `json:"region,omitempty" required_when:"enabled,!existing_secret"`
	// StorageClassName is the name of the Cinder StorageClass created.
	StorageClassName string `json:"storage_class_name,omitempty" default:"cinder-csi" format:"dns-subdomain"`
	// DefaultStorageClass makes that StorageClass the cluster default.
	DefaultStorageClass bool `json:"default_storage_class,omitempty"`
	// VolumeType is the Cinder volume type of new volumes; empty means the cloud's default.
	VolumeType string `json:"volume_type,omitempty"`
	// AvailabilityZone is the Cinder availability zone of new volumes; empty means the cloud's default.
	AvailabilityZone string `json:"availability_zone,omitempty"`
	// ExistingSecret names an existing Secret in openstack-csi's namespace holding the whole cloud.conf of the Cinder CSI driver (key cloud.conf), instead of the one rendered from auth_url, region and secrets.services.openstack-csi.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
}

// OpenTelemetryKubeStack is the OpenTelemetry operator and the cluster's collectors.
type OpenTelemetryKubeStack struct {
	ServiceCommon
	observabilityMember
	// OTLPEndpoint is an OTLP/HTTP endpoint, such as a central OpenTelemetry Collector, that the node collectors send all their traces, metrics and logs to, instead of the base's in-cluster Tempo (traces) and Loki (logs); empty keeps those.
	OTLPEndpoint string `json:"otlp_endpoint,omitempty" format:"url"`
	// OTLPInsecure sends OTLP without TLS.
	OTLPInsecure bool `json:"otlp_insecure,omitempty"`
	// CollectLogs runs the node collector that tails container logs.
	CollectLogs *bool `json:"collect_logs,omitempty" default:"true"`
	// CollectHostMetrics scrapes node CPU, memory, disk and network metrics.
	CollectHostMetrics *bool `json:"collect_host_metrics,omitempty" default:"true"`
	// TraceSamplingRatio is the fraction of traces kept, from 0.0 to 1.0, by the SDKs the operator injects into instrumented workloads; they export to the node collectors.
	TraceSamplingRatio *float64 `json:"trace_sampling_ratio,omitempty" default:"1.0"`
}

// PostgresOperator is the Zalando Postgres operator.
type PostgresOperator struct {
	Sourced
	// StorageClass names a StorageClass for the record: nothing rendered reads it, as the operator (v1.14.0) has no default StorageClass; each postgresql resource sets its own (spec.volume.storageClass; keycloak's is keycloak.storage_class).
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// StorageSize is a volume size for the record: nothing rendered reads it, as each postgresql resource sets its own (keycloak's is keycloak.db_storage_size).
	StorageSize string `json:"storage_size,omitempty" default:"10Gi" format:"quantity"`
	// WatchedNamespaces limits the operator to one namespace, the list's only item; empty means all namespaces (the operator watches one namespace or all).
	WatchedNamespaces []string `json:"watched_namespaces,omitempty" format:"dns-label"`
}

// RBACManager is the FairwindsOps RBAC manager and the cluster's role bindings.
type RBACManager struct {
	Sourced
	// RoleBindings bind identity-provider groups to ClusterRoles.
	RoleBindings []RBACRoleBinding `json:"role_bindings,omitempty"`
}

// RBACRoleBinding binds one group to one ClusterRole.
type RBACRoleBinding struct {
	// Name of the RBACDefinition entry, a DNS-1123 label.
	Name string `json:"name"`
	// Group is the OIDC group the binding applies to.
	Group string `json:"group"`
	// ClusterRole is the ClusterRole granted, such as cluster-admin, edit or view.
	ClusterRole string `json:"cluster_role"`
	// Namespaces limits the grant to these namespaces with RoleBindings; empty means cluster-wide.
	Namespaces []string `json:"namespaces,omitempty"`
}

// SealedSecrets is the Bitnami Sealed Secrets controller.
type SealedSecrets struct {
	Sourced
	// KeyRenewPeriod is how often a new sealing key is generated, a Go duration such as 720h; 0 disables renewal.
	KeyRenewPeriod string `json:"key_renew_period,omitempty" default:"720h" format:"go-duration"`
}

// Tempo is the Tempo trace store.
type Tempo struct {
	ServiceCommon
	observabilityMember
	// Storage is where trace blocks are kept: filesystem or s3 (Tempo has no Swift backend: use Swift's S3 API).
	Storage TempoStorage `json:"storage,omitempty" default:"filesystem"`
	// Bucket is the bucket of trace blocks.
	Bucket string `json:"bucket,omitempty" required_when:"storage=s3" format:"s3-bucket"`
	// Region is the object store region of the bucket.
	Region string `json:"region,omitempty" required_when:"storage=s3"`
	// Endpoint is the URL of an S3-compatible store; empty means AWS S3.
	Endpoint string `json:"endpoint,omitempty" format:"url"`
	// ExistingSecret names an existing Secret in the service's namespace holding the object store credentials as environment variables (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), instead of secrets.services.tempo.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
	// Retention is how long traces are kept, a Go duration such as 336h.
	Retention string `json:"retention,omitempty" default:"336h" format:"duration"`
	// Replicas is the number of Tempo pods.
	Replicas int `json:"replicas,omitempty" default:"1"`
	// StorageClass of Tempo's volumes; empty means the cluster default.
	StorageClass string `json:"storage_class,omitempty" format:"dns-subdomain"`
	// StorageSize of each Tempo volume, as a Kubernetes quantity.
	StorageSize string `json:"storage_size,omitempty" default:"10Gi" format:"quantity"`
}

// Velero is Velero backup and restore.
type Velero struct {
	Sourced
	// Provider is the object-store plugin: aws, which serves any S3-compatible store. Azure's and GCP's plugins are not offered: their credentials are not S3 access keys, which is what secrets.services.velero and existing_secret hold.
	Provider VeleroProvider `json:"provider,omitempty" default:"aws"`
	// Bucket is the bucket backups are written to.
	Bucket string `json:"bucket,omitempty" required_when:"enabled" format:"s3-bucket"`
	// Region is the region of the bucket (any value an S3-compatible store accepts).
	Region string `json:"region,omitempty" required_when:"enabled"`
	// S3URL is the URL of an S3-compatible store; empty means AWS S3.
	S3URL string `json:"s3_url,omitempty" format:"url"`
	// ExistingSecret names an existing Secret in velero's namespace holding an AWS credentials file under key cloud, instead of secrets.services.velero.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
	// Schedule is the cron expression of the daily backup Schedule, in UTC.
	Schedule string `json:"schedule,omitempty" default:"0 3 * * *" format:"cron"`
	// TTL is how long each backup is kept, a Go duration such as 720h.
	TTL string `json:"ttl,omitempty" default:"720h" format:"go-duration"`
	// SnapshotVolumes takes CSI snapshots of persistent volumes in each backup.
	SnapshotVolumes bool `json:"snapshot_volumes,omitempty"`
}

// VSphereCSI is the vSphere CSI driver.
type VSphereCSI struct {
	Sourced
	// VCenterHost is the vCenter server's DNS name or IP address.
	VCenterHost string `json:"vcenter_host,omitempty" required_when:"enabled,!existing_secret" format:"host"`
	// Port is the vCenter HTTPS port.
	Port int `json:"port,omitempty" default:"443"`
	// Datacenter is the vSphere datacenter the cluster's VMs run in.
	Datacenter string `json:"datacenter,omitempty" required_when:"enabled,!existing_secret"`
	// DatastoreURL is the datastore of new volumes, such as ds:///vmfs/volumes/<uuid>/; empty lets the storage policy decide.
	DatastoreURL string `json:"datastore_url,omitempty"`
	// InsecureFlag skips verification of vCenter's TLS certificate.
	InsecureFlag bool `json:"insecure_flag,omitempty"`
	// ClusterID uniquely identifies this Kubernetes cluster to vCenter; empty means cluster_name.
	ClusterID string `json:"cluster_id,omitempty"`
	// StorageClassName is the name of the vSphere StorageClass created.
	StorageClassName string `json:"storage_class_name,omitempty" default:"vsphere-csi" format:"dns-subdomain"`
	// DefaultStorageClass makes that StorageClass the cluster default.
	DefaultStorageClass bool `json:"default_storage_class,omitempty"`
	// ExistingSecret names an existing Secret in vsphere-csi's namespace holding the whole csi-vsphere.conf (key csi-vsphere.conf), instead of the one rendered from vcenter_host, datacenter and secrets.services.vsphere-csi.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
}

// WeaveGitOps is the Weave GitOps dashboard for Flux. It has no base directory.
type WeaveGitOps struct {
	ServiceCommon
	ownOverlay
	// Hostname is the dashboard's external DNS name, published through the cluster Gateway over HTTPS alone (plain HTTP is redirected), since it asks for a login; empty keeps it cluster-internal.
	Hostname string `json:"hostname,omitempty" format:"dns-subdomain"`
	// AdminUser is the dashboard's local admin user; its password hash is in secrets.services.weave-gitops.
	AdminUser string `json:"admin_user,omitempty" default:"admin"`
	// AdminExistingSecret says the admin login Secret is provided by another
	// tool (External Secrets, Sealed Secrets): it must be cluster-user-auth,
	// the name the chart reads, with keys username and password (a bcrypt
	// hash), in the dashboard's namespace. opencenter then renders none.
	AdminExistingSecret string `json:"admin_existing_secret,omitempty" format:"dns-subdomain"`
}

// AlertProxy opens a Rackspace Core ticket, through Watchman, for each alert Alertmanager sends it.
//
// Its chart (rackerlabs/alert-proxy helm/) reads every setting from a key
// of a Secret, as an environment variable: opencenter renders the Secret
// alert-proxy-settings and points the chart's values at it, and at the
// token's Secret.
type AlertProxy struct {
	Sourced
	// AccountID is the Rackspace Core account number the alerts' tickets are filed under (CORE_ACCOUNT_NUMBER).
	AccountID string `json:"account_id,omitempty" required_when:"enabled" format:"core-number"`
	// OverseerDeviceID is the Core device number of the cluster's overseer, written on every ticket (OVERSEER_CORE_DEVICE_ID).
	OverseerDeviceID string `json:"overseer_device_id,omitempty" required_when:"enabled" format:"core-number"`
	// AlertmanagerURL is the Alertmanager API alert-proxy asks whether an alert still fires before it opens a ticket (ALERT_MANAGER_URL); empty means kube-prometheus-stack's Alertmanager in the cluster, which must then be enabled.
	AlertmanagerURL string `json:"alertmanager_url,omitempty" format:"url"`
	// LinksDomain is the domain of the Grafana, Alertmanager and Prometheus links on tickets, as grafana.<links_domain> (HTTP_ROUTE_FQDN); empty means cluster.base_domain.
	LinksDomain string `json:"links_domain,omitempty" format:"dns-subdomain"`
	// ExistingSecret names an existing Secret in alert-proxy's namespace holding the account service token (key api-token), instead of secrets.managed_services.alert-proxy.
	ExistingSecret string `json:"existing_secret,omitempty" format:"dns-subdomain"`
}
