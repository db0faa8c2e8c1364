package config

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Cross-field rules of the services: what a JSON Schema cannot say. The load
// pipeline calls Validate on every enabled service that has the method, with
// path = opencenter.services.<key>; secrets are reported at
// secrets.services.<key>.<field>.

// oneOf reports whether s is one of allowed. Enumerations outside lists are
// reported by load.Check from the field index; here the result only guards
// the rules that assume a known value.
func (v *Validator) oneOf(_ string, s string, allowed ...string) bool {
	return slices.Contains(allowed, s)
}

// oneOfInList is oneOf for an enumeration inside a list element, which the
// field index has no accessor for: it reports the unknown value itself.
func (v *Validator) oneOfInList(p, s string, allowed ...string) bool {
	if slices.Contains(allowed, s) {
		return true
	}
	v.Errorf(p, "unknown value %q: expected one of %s%s", s, strings.Join(allowed, ", "), diag.Suggest(s, allowed))
	return false
}

// label checks a DNS-1123 label that names a Kubernetes object: required, then well-formed.
func (v *Validator) label(p, s, what string) {
	if v.Required(p, s, what) {
		v.DNSLabel(p, s)
	}
}

// secretRequired reports an empty secret field.
func (v *Validator) secretRequired(svc, field, value, why string) {
	if value == "" {
		v.Errorf("secrets.services."+svc+"."+field, "required %s", why)
	}
}

// gatewayEnabled reports whether the cluster Gateway is deployed.
func gatewayEnabled(c *Config) bool {
	g := c.OpenCenter.Services.Gateway
	return g != nil && g.Enabled
}

// certManagerOf returns cert-manager when it is deployed, else nil.
func certManagerOf(c *Config) *CertManager {
	if cm := c.OpenCenter.Services.CertManager; cm != nil && cm.Enabled {
		return cm
	}
	return nil
}

// objectStore checks the object storage of loki, mimir, tempo and harbor:
// storage s3 or swift needs a bucket, a region and the credentials in
// secrets.services.<svc>; swift also needs its auth URL (endpoint).
func (v *Validator) objectStore(path, svc string, storage StorageBackend, bucket, region, endpoint, accessKeyID, secretAccessKey string, backends ...string) {
	if !v.oneOf(path+".storage", string(storage), backends...) || storage == StorageFilesystem {
		return
	}
	why := fmt.Sprintf("when storage is %s", storage)
	if bucket == "" {
		v.Errorf(path+".bucket", "required %s: the bucket (or Swift container) %s writes to", why, svc)
	}
	if region == "" {
		v.Errorf(path+".region", "required %s: the object store region of the bucket", why)
	}
	if storage == StorageSwift && endpoint == "" {
		v.Errorf(path+".endpoint", "required when storage is swift: the Keystone auth URL of the Swift store, such as https://keystone.example.com:5000/v3")
	}
	what := "the S3 access key ID"
	secretWhat := "the S3 secret access key"
	if storage == StorageSwift {
		what, secretWhat = "the Swift application credential ID", "the Swift application credential secret"
	}
	v.secretRequired(svc, "access_key_id", accessKeyID, fmt.Sprintf("when %s.storage is %s: %s", path, storage, what))
	v.secretRequired(svc, "secret_access_key", secretAccessKey, fmt.Sprintf("when %s.storage is %s: %s", path, storage, secretWhat))
}

// singleReplicaOnVolumes reports more than one replica on filesystem storage,
// which the service cannot share between pods.
func (v *Validator) singleReplicaOnVolumes(path, svc string, storage StorageBackend, replicas int) {
	if replicas < 1 {
		v.Errorf(path+".replicas", "%d: expected at least 1", replicas)
	} else if storage == StorageFilesystem && replicas > 1 {
		v.Errorf(path+".replicas", "%d replicas need object storage: with storage filesystem %s runs one pod (set storage to s3 or replicas to 1)", replicas, svc)
	}
}

// sharedSource reports a source override on a service of the observability
// group: the five share the source opencenter-observability, which one
// service cannot override.
func (v *Validator) sharedSource(path, svc string, s *SourceOverride) {
	if s != nil {
		v.Errorf(path+".source", "has no effect: %s is deployed from opencenter-observability, the source of the whole observability group (kube-prometheus-stack, loki, mimir, tempo, opentelemetry-kube-stack); override gitops.base_repo instead", svc)
	}
}

// noSource reports a source override on a service without a base directory.
func (v *Validator) noSource(path, svc string, s *SourceOverride) {
	if s != nil {
		v.Errorf(path+".source", "has no effect: %s has no base directory, its overlay carries all of its content; remove source", svc)
	}
}

// Validate checks Loki's object storage and replicas.
func (s *Loki) Validate(v *Validator, path string, c *Config) {
	v.sharedSource(path, "loki", s.Source)
	sec := c.Secrets.Services.Loki
	if sec == nil {
		sec = &LokiSecrets{}
	}
	v.objectStore(path, "loki", s.Storage, s.Bucket, s.Region, s.Endpoint, sec.AccessKeyID, sec.SecretAccessKey, "filesystem", "s3", "swift")
	v.singleReplicaOnVolumes(path, "loki", s.Storage, s.Replicas)
}

// Validate checks Mimir's object storage and replicas.
func (s *Mimir) Validate(v *Validator, path string, c *Config) {
	v.sharedSource(path, "mimir", s.Source)
	sec := c.Secrets.Services.Mimir
	if sec == nil {
		sec = &MimirSecrets{}
	}
	v.objectStore(path, "mimir", s.Storage, s.Bucket, s.Region, s.Endpoint, sec.AccessKeyID, sec.SecretAccessKey, "filesystem", "s3", "swift")
	if s.Replicas < 1 {
		v.Errorf(path+".replicas", "%d: expected at least 1", s.Replicas)
	}
}

// Validate checks Tempo's object storage and replicas; Tempo has no Swift backend.
func (s *Tempo) Validate(v *Validator, path string, c *Config) {
	v.sharedSource(path, "tempo", s.Source)
	sec := c.Secrets.Services.Tempo
	if sec == nil {
		sec = &TempoSecrets{}
	}
	if s.Storage == StorageSwift {
		v.Errorf(path+".storage", "tempo has no swift backend: use s3 (Swift's S3 API, with endpoint) or filesystem")
		return
	}
	v.objectStore(path, "tempo", s.Storage, s.Bucket, s.Region, s.Endpoint, sec.AccessKeyID, sec.SecretAccessKey, "filesystem", "s3")
	v.singleReplicaOnVolumes(path, "tempo", s.Storage, s.Replicas)
}

// Validate checks Harbor's hostname, certificate, admin password and object storage.
func (s *Harbor) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Harbor
	if sec == nil {
		sec = &HarborSecrets{}
	}
	v.Required(path+".hostname", s.Hostname, "the registry's external DNS name, such as harbor.example.com")
	if s.EmitCertificate {
		if cm := certManagerOf(c); cm == nil {
			v.Errorf(path+".emit_certificate", "needs cert-manager: enable opencenter.services.cert-manager, or set emit_certificate to false")
		} else if s.Issuer != cm.IssuerName {
			v.Errorf(path+".issuer", "%q is not a ClusterIssuer of this cluster: cert-manager's issuer_name is %q", s.Issuer, cm.IssuerName)
		}
	}
	v.secretRequired("harbor", "admin_password", sec.AdminPassword, "when harbor is enabled: the initial password of Harbor's admin user")
	if s.Storage == StorageSwift {
		v.Errorf(path+".storage", "harbor's registry cannot use an application credential with swift: use s3 (Swift's S3 API, with endpoint) or filesystem")
		return
	}
	v.objectStore(path, "harbor", s.Storage, s.Bucket, s.Region, s.Endpoint, sec.AccessKeyID, sec.SecretAccessKey, "filesystem", "s3")
}

// Validate checks Velero's bucket, provider, credentials and snapshots.
func (s *Velero) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Velero
	if sec == nil {
		sec = &VeleroSecrets{}
	}
	if v.oneOf(path+".provider", string(s.Provider), "aws", "azure", "gcp") && s.Provider != VeleroProviderAWS {
		v.Errorf(path+".provider", "%s needs credentials that secrets.services.velero cannot hold (it holds S3 access keys): use aws, which serves any S3-compatible store", s.Provider)
	}
	v.Required(path+".bucket", s.Bucket, "the bucket backups are written to")
	v.Required(path+".region", s.Region, "the region of the bucket (any value an S3-compatible store accepts)")
	v.secretRequired("velero", "access_key_id", sec.AccessKeyID, "when velero is enabled: the S3 access key ID with write access to the bucket")
	v.secretRequired("velero", "secret_access_key", sec.SecretAccessKey, "when velero is enabled: the S3 secret access key")
	if es := c.OpenCenter.Services.ExternalSnapshotter; s.SnapshotVolumes && (es == nil || !es.Enabled) {
		v.Errorf(path+".snapshot_volumes", "CSI volume snapshots need the VolumeSnapshot CRDs: enable opencenter.services.external-snapshotter, or set snapshot_volumes to false")
	}
}

// Validate checks the bucket and credentials of the etcd snapshots.
func (s *EtcdBackup) Validate(v *Validator, path string, c *Config) {
	v.noSource(path, "etcd-backup", s.Source)
	sec := c.Secrets.Services.EtcdBackup
	if sec == nil {
		sec = &EtcdBackupSecrets{}
	}
	v.Required(path+".bucket", s.Bucket, "the S3 bucket the etcd snapshots are written to")
	if s.RetentionCount < 1 {
		v.Errorf(path+".retention_count", "%d: expected at least 1 snapshot kept", s.RetentionCount)
	}
	v.secretRequired("etcd-backup", "access_key_id", sec.AccessKeyID, "when etcd-backup is enabled: the S3 access key ID with write access to the bucket")
	v.secretRequired("etcd-backup", "secret_access_key", sec.SecretAccessKey, "when etcd-backup is enabled: the S3 secret access key")
}

// Validate checks the ACME account and the credentials of the DNS-01 provider.
func (s *CertManager) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.CertManager
	if sec == nil {
		sec = &CertManagerSecrets{}
	}
	v.label(path+".issuer_name", s.IssuerName, "the name of the ACME ClusterIssuer")
	v.Required(path+".acme_email", s.ACMEEmail, "the contact address registered with the ACME server")
	if !v.oneOf(path+".dns_provider", string(s.DNSProvider), "none", "cloudflare", "route53", "designate") {
		return
	}
	why := "when " + path + ".dns_provider is " + string(s.DNSProvider)
	switch s.DNSProvider {
	case DNSProviderNone:
		// HTTP-01 challenges are answered through the cluster Gateway: without
		// one the ClusterIssuer renders but can never issue a certificate.
		if g := c.OpenCenter.Services.Gateway; g == nil || !g.Enabled {
			v.Errorf(path+".dns_provider", "dns_provider none solves ACME challenges over HTTP-01 through the cluster gateway, which is not enabled: enable opencenter.services.gateway or choose cloudflare, route53 or designate")
		}
	case DNSProviderCloudflare:
		v.secretRequired("cert-manager", "cloudflare_api_token", sec.CloudflareAPIToken, why+": a Cloudflare API token with Zone:DNS:Edit")
	case DNSProviderRoute53:
		if s.Route53Region == "" {
			v.Errorf(path+".route53_region", "required when dns_provider is route53: the AWS region of the Route 53 API, such as us-east-1")
		}
		v.secretRequired("cert-manager", "route53_access_key_id", sec.Route53AccessKeyID, why+": the AWS access key ID of an IAM user allowed to change the hosted zone")
		v.secretRequired("cert-manager", "route53_secret_access_key", sec.Route53SecretAccessKey, why+": the AWS secret access key of that user")
	case DNSProviderDesignate:
		if s.DesignateAuthURL == "" {
			v.Errorf(path+".designate_auth_url", "required when dns_provider is designate: the Keystone URL, such as https://keystone.example.com:5000/v3")
		}
		v.secretRequired("cert-manager", "designate_application_credential_id", sec.DesignateApplicationCredentialID, why+": the OpenStack application credential ID")
		v.secretRequired("cert-manager", "designate_application_credential_secret", sec.DesignateApplicationCredentialSecret, why+": the secret of that application credential")
	}
}

// Validate checks that Keycloak's gateway route has a hostname and a Gateway.
func (s *Keycloak) Validate(v *Validator, path string, c *Config) {
	if !s.GatewayRoute {
		return
	}
	if s.Hostname == "" {
		v.Errorf(path+".hostname", "required when gateway_route is true: the DNS name the HTTPRoute publishes")
	}
	if !gatewayEnabled(c) {
		v.Errorf(path+".gateway_route", "the HTTPRoute attaches to the cluster Gateway: enable opencenter.services.gateway, or set gateway_route to false")
	}
}

// Validate checks MetalLB's address pools.
func (s *MetalLB) Validate(v *Validator, path string, c *Config) {
	if len(s.IPPools) == 0 {
		v.Errorf(path+".ip_pools", "required: at least one pool {name, addresses} LoadBalancer Services get addresses from")
	}
	names := map[string]bool{}
	for i, pool := range s.IPPools {
		pp := fmt.Sprintf("%s.ip_pools[%d]", path, i)
		v.label(pp+".name", pool.Name, "the name of the IPAddressPool")
		v.unique(names, pp+".name", pool.Name, "pool names are unique")
		if len(pool.Addresses) == 0 {
			v.Errorf(pp+".addresses", "required: at least one CIDR (10.0.0.0/28) or range (10.0.0.10-10.0.0.20)")
		}
		for j, a := range pool.Addresses {
			if msg := addressRange(a); msg != "" {
				v.Errorf(fmt.Sprintf("%s.addresses[%d]", pp, j), "%q %s", a, msg)
			}
		}
	}
}

// addressRange checks a MetalLB address: a CIDR or a range of two IPs of one
// family, start <= end. It returns what is wrong, or "".
func addressRange(a string) string {
	const want = "expected a CIDR such as 10.0.0.0/28 or a range such as 10.0.0.10-10.0.0.20"
	if from, to, ok := strings.Cut(a, "-"); ok {
		start, err1 := netip.ParseAddr(strings.TrimSpace(from))
		end, err2 := netip.ParseAddr(strings.TrimSpace(to))
		switch {
		case err1 != nil || err2 != nil:
			return "is not a range of two IP addresses: " + want
		case start.Is4() != end.Is4():
			return "mixes IPv4 and IPv6: " + want
		case end.Less(start):
			return "ends before it starts: the first address must not be greater than the second"
		}
		return ""
	}
	if _, err := netip.ParsePrefix(a); err != nil {
		return "is not a CIDR or an address range: " + want
	}
	return ""
}

// Validate checks the Gateway's names, issuer and listeners.
func (s *Gateway) Validate(v *Validator, path string, c *Config) {
	v.noSource(path, "gateway", s.Source)
	v.label(path+".name", s.Name, "the name of the Gateway")
	v.label(path+".gateway_class_name", s.GatewayClassName, "the name of the GatewayClass")
	cm := certManagerOf(c)
	if s.Issuer != "" && cm != nil && s.Issuer != cm.IssuerName {
		v.Errorf(path+".issuer", "%q is not a ClusterIssuer of this cluster: cert-manager's issuer_name is %q", s.Issuer, cm.IssuerName)
	}
	if s.LoadBalancerIP != "" {
		if ip, err := netip.ParseAddr(s.LoadBalancerIP); err != nil || !ip.Is4() {
			v.Errorf(path+".load_balancer_ip", "%q is not an IPv4 address", s.LoadBalancerIP)
		}
	}
	if len(s.Listeners) == 0 {
		v.Errorf(path+".listeners", "required: at least one listener {name, port, protocol}")
	}
	names := map[string]bool{}
	for i, l := range s.Listeners {
		lp := fmt.Sprintf("%s.listeners[%d]", path, i)
		v.label(lp+".name", l.Name, "the listener's name, unique within the Gateway")
		v.unique(names, lp+".name", l.Name, "listener names are unique within the Gateway")
		if l.Port < 1 || l.Port > 65535 {
			v.Errorf(lp+".port", "%d: expected a port from 1 to 65535", l.Port)
		}
		if !v.oneOfInList(lp+".protocol", string(l.Protocol), "HTTP", "HTTPS") || l.Protocol != ListenerHTTPS {
			continue
		}
		if l.Hostname == "" {
			v.Errorf(lp+".hostname", "required when protocol is HTTPS: the name its certificate is issued for, such as *.example.com")
		} else if strings.HasPrefix(l.Hostname, "*.") && cm != nil && cm.DNSProvider == DNSProviderNone {
			v.Errorf(lp+".hostname", "%q is a wildcard, which ACME issues only with DNS-01: set opencenter.services.cert-manager.dns_provider to cloudflare, route53 or designate", l.Hostname)
		}
		if l.TLSSecretName == "" {
			v.Errorf(lp+".tls_secret_name", "required when protocol is HTTPS: the Secret cert-manager writes the listener's certificate to")
		}
	}
}

// Validate checks the Kafka cluster's name and size.
func (s *KafkaCluster) Validate(v *Validator, path string, c *Config) {
	v.label(path+".cluster_name", s.ClusterName, "the name of the Kafka custom resource")
	if s.Replicas != nil && *s.Replicas < 1 {
		v.Errorf(path+".replicas", "%d: expected at least 1 broker", *s.Replicas)
	}
}

// Validate checks Calico's pod network.
func (s *Calico) Validate(v *Validator, path string, c *Config) {
	v.noSource(path, "calico", s.Source)
	v.oneOf(path+".encapsulation", string(s.Encapsulation), "VXLAN", "VXLANCrossSubnet", "IPIP", "IPIPCrossSubnet", "None")
	if !v.Required(path+".pod_cidr", s.PodCIDR, "the IPv4 CIDR of the pod network, such as 10.244.0.0/16") {
		return
	}
	prefix, err := netip.ParsePrefix(s.PodCIDR)
	switch {
	case err != nil || !prefix.Addr().Is4():
		v.Errorf(path+".pod_cidr", "%q is not an IPv4 CIDR such as 10.244.0.0/16", s.PodCIDR)
	case prefix.Masked() != prefix:
		v.Errorf(path+".pod_cidr", "%q has host bits set: expected the network address %s", s.PodCIDR, prefix.Masked())
	case s.BlockSize < prefix.Bits() || s.BlockSize > 32:
		v.Errorf(path+".block_size", "%d: expected a prefix length from %d (pod_cidr's) to 32", s.BlockSize, prefix.Bits())
	}
	if s.MTU != nil && (*s.MTU < 576 || *s.MTU > 9000) {
		v.Errorf(path+".mtu", "%d: expected an MTU from 576 to 9000 bytes", *s.MTU)
	}
}

// Validate checks Headlamp's OIDC settings.
func (s *Headlamp) Validate(v *Validator, path string, c *Config) {
	if !s.OIDCEnabled {
		return
	}
	if s.OIDCIssuerURL == "" {
		v.Errorf(path+".oidc_issuer_url", "required when oidc_enabled is true: the OIDC issuer, such as https://auth.example.com/realms/opencenter")
	}
	var secret string
	if sec := c.Secrets.Services.Headlamp; sec != nil {
		secret = sec.OIDCClientSecret
	}
	v.secretRequired("headlamp", "oidc_client_secret", secret, "when "+path+".oidc_enabled is true: the secret of Headlamp's OIDC client")
}

// Validate checks that Grafana has an admin password.
func (s *KubePrometheusStack) Validate(v *Validator, path string, c *Config) {
	v.sharedSource(path, "kube-prometheus-stack", s.Source)
	var pw string
	if sec := c.Secrets.Services.KubePrometheusStack; sec != nil {
		pw = sec.GrafanaAdminPassword
	}
	v.secretRequired("kube-prometheus-stack", "grafana_admin_password", pw, "when kube-prometheus-stack is enabled: the password of Grafana's admin user (the chart's default is public)")
}

// Validate checks the dashboard's admin login.
func (s *WeaveGitOps) Validate(v *Validator, path string, c *Config) {
	v.noSource(path, "weave-gitops", s.Source)
	var hash string
	if sec := c.Secrets.Services.WeaveGitOps; sec != nil {
		hash = sec.AdminPasswordHash
	}
	if hash == "" {
		v.secretRequired("weave-gitops", "admin_password_hash", hash, "when weave-gitops is enabled: the bcrypt hash of the admin user's password")
	} else if hash != Placeholder && !strings.HasPrefix(hash, "$2") { // an encrypted value is checked where its key is
		v.Errorf("secrets.services.weave-gitops.admin_password_hash", "is not a bcrypt hash: expected $2a$..., $2b$... or $2y$... (htpasswd -nbBC 10 '' <password>)")
	}
}

// Validate checks the cloud.conf of the OpenStack cloud controller manager.
func (s *OpenStackCCM) Validate(v *Validator, path string, c *Config) {
	var sec OpenStackCCMSecrets
	if p := c.Secrets.Services.OpenStackCCM; p != nil {
		sec = *p
	}
	v.openStackCloud(path, "openstack-ccm", s.AuthURL, s.Region, sec.ApplicationCredentialID, sec.ApplicationCredentialSecret)
	v.oneOf(path+".lb_provider", string(s.LBProvider), "amphora", "ovn")
}

// Validate checks the cloud.conf of the Cinder CSI driver.
func (s *OpenStackCSI) Validate(v *Validator, path string, c *Config) {
	var sec OpenStackCSISecrets
	if p := c.Secrets.Services.OpenStackCSI; p != nil {
		sec = *p
	}
	v.openStackCloud(path, "openstack-csi", s.AuthURL, s.Region, sec.ApplicationCredentialID, sec.ApplicationCredentialSecret)
	v.label(path+".storage_class_name", s.StorageClassName, "the name of the Cinder StorageClass")
}

func (v *Validator) openStackCloud(path, svc, authURL, region, id, secret string) {
	v.Required(path+".auth_url", authURL, "the Keystone v3 URL, such as https://keystone.example.com:5000/v3")
	v.Required(path+".region", region, "the OpenStack region of the cluster")
	v.secretRequired(svc, "application_credential_id", id, "when "+svc+" is enabled: the ID of an application credential of the cluster's project")
	v.secretRequired(svc, "application_credential_secret", secret, "when "+svc+" is enabled: the secret of that application credential")
}

// Validate checks the csi-vsphere.conf of the vSphere CSI driver.
func (s *VSphereCSI) Validate(v *Validator, path string, c *Config) {
	var sec VSphereCSISecrets
	if p := c.Secrets.Services.VSphereCSI; p != nil {
		sec = *p
	}
	v.Required(path+".vcenter_host", s.VCenterHost, "the vCenter server's DNS name or IP address")
	v.Required(path+".datacenter", s.Datacenter, "the vSphere datacenter the cluster's VMs run in")
	if s.Port < 1 || s.Port > 65535 {
		v.Errorf(path+".port", "%d: expected a port from 1 to 65535", s.Port)
	}
	v.label(path+".storage_class_name", s.StorageClassName, "the name of the vSphere StorageClass")
	v.secretRequired("vsphere-csi", "username", sec.Username, "when vsphere-csi is enabled: the vCenter user of the driver")
	v.secretRequired("vsphere-csi", "password", sec.Password, "when vsphere-csi is enabled: that user's password")
}

// Validate checks Longhorn's replica count.
func (s *Longhorn) Validate(v *Validator, path string, c *Config) {
	if s.DefaultReplicaCount < 1 || s.DefaultReplicaCount > 20 {
		v.Errorf(path+".default_replica_count", "%d: expected 1 to 20 replicas per volume", s.DefaultReplicaCount)
	}
}

// Validate checks the role bindings of the RBACDefinition.
func (s *RBACManager) Validate(v *Validator, path string, c *Config) {
	names := map[string]bool{}
	for i, b := range s.RoleBindings {
		bp := fmt.Sprintf("%s.role_bindings[%d]", path, i)
		v.label(bp+".name", b.Name, "the name of the binding")
		if b.Name != "" {
			if names[b.Name] {
				v.Errorf(bp+".name", "duplicate role binding name %q", b.Name)
			}
			names[b.Name] = true
		}
		v.Required(bp+".group", b.Group, "the OIDC group the binding applies to")
		v.Required(bp+".cluster_role", b.ClusterRole, "the ClusterRole granted, such as edit or view")
		for j, ns := range b.Namespaces {
			v.DNSLabel(fmt.Sprintf("%s.namespaces[%d]", bp, j), ns)
		}
	}
}

// Validate checks the collectors' sampling ratio.
func (s *OpenTelemetryKubeStack) Validate(v *Validator, path string, c *Config) {
	v.sharedSource(path, "opentelemetry-kube-stack", s.Source)
	if r := s.TraceSamplingRatio; r != nil && (*r < 0 || *r > 1) {
		v.Errorf(path+".trace_sampling_ratio", "%g: expected a fraction from 0.0 to 1.0", *r)
	}
}

// Validate checks the Istio profile.
func (s *Istio) Validate(v *Validator, path string, c *Config) {
	v.oneOf(path+".profile", string(s.Profile), "default", "minimal", "ambient", "demo")
}

// unique records name in seen and reports a name seen before at YAML path p.
func (v *Validator) unique(seen map[string]bool, p, name, rule string) {
	if name == "" {
		return
	}
	if seen[name] {
		v.Errorf(p, "duplicate name %q: %s", name, rule)
	}
	seen[name] = true
}
