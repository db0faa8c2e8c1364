package config

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"maps"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Cross-field rules of the services: what a JSON Schema cannot say. The load
// (File.Check, through the catalog's check) calls Validate on every enabled
// service that has the method, with path = opencenter.services.<key>; secrets
// are reported at secrets.services.<key>.<field>. Which fields are required,
// and when, is not here: it is the fields' `required_when` tags, which the
// generator compiles into the field index, the load enforces and explain shows.

// oneOfInList reports an enumeration value inside a list element that is
// not one of allowed: the field index, from which the load reports the
// others, has no accessor for list elements.
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

// existingSecret reports credentials given twice: in secrets: (at
// secretPath, keys to values) and as the existing Secret named at
// existingPath, which wins.
func (v *Validator) existingSecret(existingPath, name, secretPath string, values map[string]string) {
	if name == "" {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if values[k] != "" {
			v.Errorf(secretPath+"."+k, "is not used: %s names the Secret holding this credential; remove one of them", existingPath)
		}
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

// issuerRef checks a service's reference at path p to a ClusterIssuer for
// a certificate: the issuer it names ("" for the cluster's, which it gets
// by default) must be cert-manager's. orElse says how to do without.
func (v *Validator) issuerRef(p, issuer, orElse string, c *Config) {
	cm := certManagerOf(c)
	switch {
	case cm == nil:
		// The unit requires cert-manager: the render names what to enable.
	case cm.Issuer == CertIssuerNone:
		what := "a ClusterIssuer"
		if issuer != "" {
			what = strconv.Quote(issuer)
		}
		v.Errorf(p, "needs %s, but cert-manager has none (its issuer is none): set opencenter.services.cert-manager.issuer to acme, selfsigned or ca, or %s", what, orElse)
	case issuer != "" && issuer != cm.IssuerName:
		v.Errorf(p, "%q is not a ClusterIssuer of this cluster: cert-manager's issuer_name is %q", issuer, cm.IssuerName)
	}
}

// joinAnd joins words as "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
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

// Validate checks Loki's object store credentials and replicas.
func (s *Loki) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Loki
	if sec == nil {
		sec = &LokiSecrets{}
	}
	v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.services.loki", map[string]string{"access_key_id": sec.AccessKeyID, "secret_access_key": sec.SecretAccessKey})
	v.singleReplicaOnVolumes(path, "loki", s.Storage, s.Replicas)
	v.objectStoreValues(path, s.Bucket, s.Region, s.Endpoint, expandedByLoki, "loki")
	v.s3HostRegion(path, "Loki", s.Storage, s.Endpoint, s.Region)
	v.objectStoreBucket(path, s.Storage, s.Bucket)
	// loki 6.45.2, templates/_helpers.tpl writes the S3 region and endpoint
	// and the Swift container into the config as given.
	v.chartUnquoted(path, "region", s.Region, "loki")
	// The values give Loki the endpoint without its scheme.
	v.chartWritesUnquoted(path, "endpoint", s.Endpoint, strings.TrimPrefix(strings.TrimPrefix(s.Endpoint, "https://"), "http://"), "loki")
	if s.Storage == StorageSwift {
		v.chartUnquoted(path, "bucket", s.Bucket, "loki")
	}
}

// Validate checks Mimir's object store credentials and replicas.
func (s *Mimir) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Mimir
	if sec == nil {
		sec = &MimirSecrets{}
	}
	v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.services.mimir", map[string]string{"access_key_id": sec.AccessKeyID, "secret_access_key": sec.SecretAccessKey})
	v.mimirMinIO(path, s, sec)
	if s.Replicas < 1 {
		v.Errorf(path+".replicas", "%d: expected at least 1", s.Replicas)
	}
	v.minioEndpoint(path, "Mimir", s.Storage, s.Endpoint)
	v.objectStoreValues(path, s.Bucket, s.Region, s.Endpoint, expandedByMimir, "mimir-distributed")
	v.s3HostRegion(path, "Mimir", s.Storage, s.Endpoint, s.Region)
	v.objectStoreBucket(path, s.Storage, s.Bucket)
}

// mimirMinIO checks the root password of the MinIO that keeps Mimir's
// blocks with storage filesystem, and that it is given only then.
func (v *Validator) mimirMinIO(path string, s *Mimir, sec *MimirSecrets) {
	const at = "secrets.services.mimir.minio_root_password"
	if s.Storage != StorageFilesystem {
		v.withoutEffect(fmt.Sprintf("storage is %s, so the chart's MinIO is off", s.Storage), path+".values_existing_secret", s.ValuesExistingSecret, at, sec.MinIORootPassword)
		return
	}
	v.existingSecret(path+".values_existing_secret", s.ValuesExistingSecret, "secrets.services.mimir", map[string]string{"minio_root_password": sec.MinIORootPassword})
	// mimir-distributed 6.0.3 writes .Values.minio.rootPassword unquoted
	// into Mimir's YAML config (which Helm's fromYaml then reads), and the
	// MinIO chart's bucket job runs mc with it unquoted in a shell word. A
	// letter first keeps YAML from reading a number, a date or another
	// type; the characters keep the shell from splitting or globbing it.
	if p := sec.MinIORootPassword; readable(p) && (len(p) < minioPasswordMin || !asciiLetter(p[0]) || strings.ContainsFunc(p, func(r rune) bool { return !passwordRune(r) })) {
		v.Errorf(at, "expected at least %d characters, starting with a letter, each a letter, a digit or one of ._~+/=-, such as m followed by the output of openssl rand -hex 16: the chart writes it unquoted into Mimir's YAML config, and MinIO's bucket job into a shell command", minioPasswordMin)
	}
}

// withoutEffect reports each set field of pairs (path, value) as having no
// effect, for why: a setting the rest of the config leaves unused.
func (v *Validator) withoutEffect(why string, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			v.Errorf(pairs[i], "has no effect: %s", why)
		}
	}
}

// minioPasswordMin is the shortest secret key MinIO takes.
const minioPasswordMin = 8

// Validate checks Tempo's object storage and replicas.
func (s *Tempo) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Tempo
	if sec == nil {
		sec = &TempoSecrets{}
	}
	v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.services.tempo", map[string]string{"access_key_id": sec.AccessKeyID, "secret_access_key": sec.SecretAccessKey})
	storage := StorageBackend(s.Storage)
	v.singleReplicaOnVolumes(path, "tempo", storage, s.Replicas)
	v.minioEndpoint(path, "Tempo", storage, s.Endpoint)
	v.objectStoreValues(path, s.Bucket, s.Region, s.Endpoint, "", "tempo-distributed")
	v.s3HostRegion(path, "Tempo", storage, s.Endpoint, s.Region)
}

// Validate checks Harbor's certificate, that the cluster Gateway serves its
// hostname, and where its credentials come from.
func (s *Harbor) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Harbor
	if sec == nil {
		sec = &HarborSecrets{}
	}
	switch {
	case s.EmitCertificate && gatewayEnabled(c):
		v.Errorf(path+".emit_certificate", "has no effect: the cluster Gateway publishes Harbor at %q and terminates TLS with its HTTPS listener's certificate, and Harbor serves HTTP behind it; set emit_certificate to false", s.Hostname)
	case s.EmitCertificate:
		if certManagerOf(c) == nil {
			v.Errorf(path+".emit_certificate", "needs cert-manager: enable opencenter.services.cert-manager, or set emit_certificate to false")
		} else if s.Issuer == "" {
			v.issuerRef(path+".emit_certificate", "", "set emit_certificate to false", c)
		} else {
			v.issuerRef(path+".issuer", s.Issuer, "remove issuer and emit_certificate", c)
		}
	}
	v.existingSecret(path+".admin_existing_secret", s.AdminExistingSecret, "secrets.services.harbor", map[string]string{"admin_password": sec.AdminPassword})
	v.existingSecret(path+".secret_key_existing_secret", s.SecretKeyExistingSecret, "secrets.services.harbor", map[string]string{"secret_key": sec.SecretKey})
	v.existingSecret(path+".values_existing_secret", s.ValuesExistingSecret, "secrets.services.harbor", map[string]string{"database_password": sec.DatabasePassword, "registry_password": sec.RegistryPassword})
	v.harborSecretValues(sec)
	v.objectStoreBucket(path, s.Storage, s.Bucket)
	v.existingSecret(path+".object_store_existing_secret", s.ObjectStoreExistingSecret, "secrets.services.harbor",
		map[string]string{"access_key_id": sec.AccessKeyID, "secret_access_key": sec.SecretAccessKey, "swift_password": sec.SwiftPassword})
	// harbor 1.17.2, templates/registry/registry-cm.yaml writes the storage
	// values into the registry's config.yml as given.
	for _, f := range [...]struct{ key, value string }{{"bucket", s.Bucket}, {"region", s.Region}, {"endpoint", s.Endpoint},
		{"swift_username", s.SwiftUsername}, {"swift_project", s.SwiftProject}, {"swift_domain", s.SwiftDomain}} {
		v.chartUnquoted(path, f.key, f.value, "harbor")
	}
	v.s3HostRegion(path, "Harbor", s.Storage, s.Endpoint, s.Region)
	v.routeHostname(path, "hostname", s.Hostname, published{svc: "Harbor (externalURL)", https: true}, c)
}

// harborSecretValues checks the form Harbor's components need of its key
// and internal passwords. No message says which character is wrong: a
// secret is never printed.
func (v *Validator) harborSecretValues(sec *HarborSecrets) {
	const at = "secrets.services.harbor."
	// harbor core 2.13 (the chart 1.17.2's) keys AES with the key's bytes;
	// the chart documents 16.
	if n := len(sec.SecretKey); readable(sec.SecretKey) && n != harborSecretKeyLen {
		v.Errorf(at+"secret_key", "is %d bytes long: expected %d (Harbor uses it as its AES key), such as the output of openssl rand -hex 8", n, harborSecretKeyLen)
	}
	if p := sec.DatabasePassword; readable(p) {
		if strings.ContainsFunc(p, func(r rune) bool { return !passwordRune(r) }) {
			v.Errorf(at+"database_password", "has a character other than a letter, a digit or one of ._~+/=-: harbor-db quotes the password into SQL, and core into a connection string, without escaping")
		} else if len(p) < harborPasswordMin {
			v.Errorf(at+"database_password", "is %d characters long: expected at least %d, such as the output of openssl rand -base64 24", len(p), harborPasswordMin)
		}
	}
	// The chart hashes it with bcrypt (sprig's htpasswd), which takes at most 72 bytes.
	if n := len(sec.RegistryPassword); readable(sec.RegistryPassword) && (n < harborPasswordMin || n > bcryptMaxLen) {
		v.Errorf(at+"registry_password", "is %d bytes long: expected %d to %d (the registry keeps its bcrypt hash), such as the output of openssl rand -base64 24", n, harborPasswordMin, bcryptMaxLen)
	}
}

// readable reports whether s is a secret value as given: set, and not the
// placeholder of a value still encrypted, which is checked where its key is.
func readable(s string) bool { return s != "" && s != Placeholder }

// harborSecretKeyLen is the length of Harbor's secretKey.
const harborSecretKeyLen = 16

// harborPasswordMin is the shortest internal password of Harbor accepted;
// bcryptMaxLen the most bytes bcrypt hashes.
const harborPasswordMin, bcryptMaxLen = 8, 72

// passwordRune reports whether r may be in a password that its consumers
// write into another format unescaped: an ASCII letter or digit, or one of
// ._~+/=-. harbor-db 2.13.2 (initdb.sh) writes Harbor's database password
// into SQL between single quotes, and core (src/common/dao/pgsql.go) into
// a libpq connection string of key=value pairs: a quote, a backslash or a
// space would break or rewrite them. MinIO's root password goes into YAML
// and a shell word, where '#', ':', '*' or a space would.
func passwordRune(r rune) bool {
	return r < 0x80 && asciiLetter(byte(r)) || '0' <= r && r <= '9' || strings.ContainsRune("._~+/=-", r)
}

// asciiLetter reports whether b is a letter of ASCII: a password's first
// byte is one only when its first character is.
func asciiLetter(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// Validate checks Velero's provider, credentials and snapshots.
func (s *Velero) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.Velero
	if sec == nil {
		sec = &VeleroSecrets{}
	}
	v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.services.velero", map[string]string{"access_key_id": sec.AccessKeyID, "secret_access_key": sec.SecretAccessKey})
	if es := c.OpenCenter.Services.ExternalSnapshotter; s.SnapshotVolumes && (es == nil || !es.Enabled) {
		v.Errorf(path+".snapshot_volumes", "CSI volume snapshots need the VolumeSnapshot CRDs: enable opencenter.services.external-snapshotter, or set snapshot_volumes to false")
	}
	if s.Provider == VeleroProviderAWS {
		v.s3HostRegion(path, "Velero", StorageS3, s.S3URL, s.Region)
	}
}

// Validate checks how many etcd snapshots are kept.
func (s *EtcdBackup) Validate(v *Validator, path string, c *Config) {
	if sec := c.Secrets.Services.EtcdBackup; sec != nil {
		v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.services.etcd-backup", map[string]string{"access_key_id": sec.AccessKeyID, "secret_access_key": sec.SecretAccessKey})
	}
	if s.RetentionCount < 1 {
		v.Errorf(path+".retention_count", "%d: expected at least 1 snapshot kept", s.RetentionCount)
	}
	v.objectStoreValues(path, s.Bucket, s.Region, s.Endpoint, expandedByKubernetes, "")
	v.s3HostRegion(path, "etcd-backup", StorageS3, s.Endpoint, s.Region)
}

// s3HostRegion checks the region of a service on AWS S3 (storage s3, no
// endpoint), whose S3 host is s3.<region>.amazonaws.com: a '?', '#' or '/'
// in the region would end the host there and send the service's S3
// requests to another server, and the AWS SDKs' S3 endpoint rules refuse a
// region that is not a host label.
func (v *Validator) s3HostRegion(path, service string, storage StorageBackend, endpoint, region string) {
	if storage == StorageS3 && endpoint == "" && region != "" && !IsDNSLabel(region) && !v.reported(path+".region") {
		v.Errorf(path+".region", "%q is not an AWS region such as us-east-1 (lowercase letters, digits and '-'): without endpoint, %s's S3 endpoint is s3.<region>.amazonaws.com", region, service)
	}
}

// minioEndpoint checks the S3 endpoint of a service whose S3 client is
// minio-go (Tempo, Mimir): its values give it the URL without its scheme,
// and minio-go takes a host and port only, refusing a path.
func (v *Validator) minioEndpoint(path, service string, storage StorageBackend, endpoint string) {
	if storage != StorageS3 || endpoint == "" {
		return
	}
	if u, err := url.Parse(endpoint); err == nil && u.Path != "" && u.Path != "/" {
		v.Errorf(path+".endpoint", "%q has a path: %s's S3 client (minio-go) takes the store's scheme, host and port only, such as https://s3.example.com:9000", endpoint, service)
	}
}

// maxSwiftContainer bounds a Swift container's name in bytes.
const maxSwiftContainer = 256

// objectStoreBucket checks the bucket of a service that stores in S3 or
// Swift: with s3 an S3 bucket name, with swift a container name, which
// Swift takes with no '/' and of at most 256 bytes. A bucket a rule
// already refused (objectStoreValues) is not reported again.
func (v *Validator) objectStoreBucket(path string, storage StorageBackend, bucket string) {
	var msg string
	switch {
	case bucket == "":
		return
	case storage == StorageS3 && !MatchFormat("s3-bucket", bucket):
		msg = fmt.Sprintf("%q is not %s", bucket, FormatDocs["s3-bucket"])
	case storage == StorageSwift && (strings.Contains(bucket, "/") || len(bucket) > maxSwiftContainer):
		msg = fmt.Sprintf("%q is not a Swift container name: no '/', at most %d bytes", bucket, maxSwiftContainer)
	default:
		return
	}
	if p := path + ".bucket"; !v.reported(p) {
		v.Errorf(p, "%s", msg)
	}
}

// Where a consumer expands variable references in the values it is given,
// which would replace part of a value, with a Secret's value as readily as
// any other.
const (
	expandedByKubernetes = "Kubernetes expands $(NAME) in the backup job's environment"
	expandedByLoki       = "Loki reads its config with -config.expand-env, which expands ${NAME}"
	expandedByMimir      = "Mimir reads its config with -config.expand-env, which expands ${NAME}"
	expandedByCollector  = "the OpenTelemetry Collector expands ${NAME} in its config and reads $$ as $"
)

// chartUnquoted refuses a value that the base's chart writes into a YAML
// file unquoted, as it was given, and that a YAML 1.1 reader (Helm's
// fromYaml, the registry's config loader) would not read back as the same
// string: a value such as "a #b", "x: y" or yes would be cut, change the
// file's structure or turn into another type.
func (v *Validator) chartUnquoted(path, key, s, chart string) {
	v.chartWritesUnquoted(path, key, s, s, chart)
}

// chartWritesUnquoted is chartUnquoted for a value the chart is given
// changed (written, such as an endpoint without its scheme).
func (v *Validator) chartWritesUnquoted(path, key, s, written, chart string) {
	if written == "" || PlainYAML11(written) {
		return
	}
	as := ""
	if written != s {
		as = fmt.Sprintf(" (as %q)", written)
	}
	if p := path + "." + key; !v.reported(p) {
		v.Errorf(p, "%q would not stay one string: the chart %s writes it%s unquoted into YAML, where it would be read as another type or structure (expected letters, digits and punctuation, not starting with one of -?:,[]{}#&*!|>'\"%%@`+., without ': ' or ' #', and not a number, boolean or null)", s, chart, as)
	}
}

// untemplated refuses "{{" in a value the base's chart passes through
// Helm's tpl, where Helm would run it as a template when it installs the
// chart, with the release's values and the cluster's objects (lookup) at
// hand.
func (v *Validator) untemplated(path, key, s, chart string) {
	if strings.Contains(s, "{{") {
		v.Errorf(path+"."+key, "%q holds \"{{\", which no such value needs: the chart %s passes it through Helm's tpl, which would run it as a template at install", s, chart)
	}
}

// unexpanded refuses a '$' in a value that lands where its consumer
// expands references (how), which would replace part of it; what says
// which values need none.
func (v *Validator) unexpanded(path, key, s, what, how string) {
	if strings.Contains(s, "$") {
		v.Errorf(path+"."+key, "%q holds '$', which no %s needs: %s, so part of the value would be replaced", s, what, how)
	}
}

// objectStoreValues holds an object store's bucket, region and endpoint to
// what their consumers do with them: expand references (how, "" for no
// consumer that does) and run a chart's tpl over them (chart, "" for
// none).
func (v *Validator) objectStoreValues(path, bucket, region, endpoint, how, chart string) {
	for _, f := range [...]struct{ key, value string }{{"bucket", bucket}, {"region", region}, {"endpoint", endpoint}} {
		if how != "" {
			v.unexpanded(path, f.key, f.value, "bucket, region or store URL", how)
		}
		if chart != "" {
			v.untemplated(path, f.key, f.value, chart)
		}
	}
}

// Validate checks that the settings of one kind of issuer are not given to
// another, and that HTTP-01 challenges have a gateway to be answered through.
func (s *CertManager) Validate(v *Validator, path string, c *Config) {
	if s.Issuer == CertIssuerNone && s.IssuerName != "" {
		v.Errorf(path+".issuer_name", "has no effect: issuer is none, so no ClusterIssuer is rendered; set issuer to acme, selfsigned or ca")
	}
	if s.Issuer != CertIssuerCA && s.CASecretName != "" {
		v.Errorf(path+".ca_secret_name", "has no effect: issuer is %s, not ca", s.Issuer)
	}
	if s.Issuer != CertIssuerACME {
		// A config from before issuer existed meant acme: say so rather than
		// drop its ClusterIssuer.
		var acme []string
		for _, f := range []struct{ key, value string }{
			{"acme_email", s.ACMEEmail},
			{"dns_provider", strings.TrimPrefix(string(s.DNSProvider), string(DNSProviderNone))},
			{"route53_region", s.Route53Region},
			{"route53_hosted_zone_id", s.Route53HostedZoneID},
			{"designate_auth_url", s.DesignateAuthURL},
			{"designate_region", s.DesignateRegion},
			{"dns_existing_secret", s.DNSExistingSecret},
		} {
			if f.value != "" {
				acme = append(acme, f.key)
			}
		}
		if len(acme) > 0 {
			verb, them := "configure", "them"
			if len(acme) == 1 {
				verb, them = "configures", "it"
			}
			v.Errorf(path+"."+acme[0], "%s %s the ACME issuer, but issuer is %s: set issuer to acme (it is no longer the default), or remove %s", joinAnd(acme), verb, s.Issuer, them)
		}
		return
	}
	if s.DNSProvider == DNSProviderNone && s.DNSExistingSecret != "" {
		v.Errorf(path+".dns_existing_secret", "has no effect: dns_provider is none, HTTP-01 needs no credentials; remove dns_existing_secret or choose cloudflare, route53 or designate")
	}
	if sec := c.Secrets.Services.CertManager; sec != nil {
		v.existingSecret(path+".dns_existing_secret", s.DNSExistingSecret, "secrets.services.cert-manager", map[string]string{
			"cloudflare_api_token": sec.CloudflareAPIToken, "route53_access_key_id": sec.Route53AccessKeyID, "route53_secret_access_key": sec.Route53SecretAccessKey,
			"designate_application_credential_id": sec.DesignateApplicationCredentialID, "designate_application_credential_secret": sec.DesignateApplicationCredentialSecret})
	}
	if s.DNSProvider == DNSProviderNone && !gatewayEnabled(c) {
		// HTTP-01 challenges are answered through the cluster Gateway: without
		// one the ClusterIssuer renders but can never issue a certificate.
		v.Errorf(path+".dns_provider", "dns_provider none solves ACME challenges over HTTP-01 through the cluster gateway, which is not enabled: enable opencenter.services.gateway or choose cloudflare, route53 or designate")
	}
}

// Validate checks that Keycloak's gateway route has a Gateway whose
// listeners serve its hostname, and where its admin login comes from.
func (s *Keycloak) Validate(v *Validator, path string, c *Config) {
	var pw string
	if sec := c.Secrets.Services.Keycloak; sec != nil {
		pw = sec.AdminPassword
	}
	v.existingSecret(path+".admin_existing_secret", s.AdminExistingSecret, "secrets.services.keycloak", map[string]string{"admin_password": pw})
	if s.GatewayRoute && !gatewayEnabled(c) {
		v.Errorf(path+".gateway_route", "the HTTPRoute attaches to the cluster Gateway: enable opencenter.services.gateway, or set gateway_route to false")
	}
	if s.GatewayRoute {
		https, urlPath := s.frontendHTTPS()
		v.routeHostname(path, "hostname", s.Hostname, published{svc: "Keycloak (its frontend URL)", https: https, urlPath: urlPath}, c)
	}
}

// frontendHTTPS reports whether Keycloak's frontend URL is https on its
// hostname (https://<hostname> unless frontend_url moves it), with the
// URL's path.
func (s *Keycloak) frontendHTTPS() (bool, string) {
	if s.FrontendURL == "" {
		return true, ""
	}
	u, err := url.Parse(s.FrontendURL)
	if err != nil || u.Scheme != "https" || u.Host != s.Hostname {
		return false, ""
	}
	return true, u.EscapedPath()
}

// HTTPSOnly reports whether Keycloak's route takes HTTPS alone, plain HTTP
// to its name being redirected, as for the other login pages: when its
// frontend URL is https on its hostname. A frontend URL elsewhere (a proxy
// in front) or over http leaves the route on every listener.
func (s *Keycloak) HTTPSOnly() bool {
	https, _ := s.frontendHTTPS()
	return https
}

// Validate checks MetalLB's address pools.
func (s *MetalLB) Validate(v *Validator, path string, c *Config) {
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
		case err1 != nil || err2 != nil || start.Zone() != "" || end.Zone() != "": // MetalLB's parser (net.ParseIP) takes no zone
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

// pooled reports whether ip is in one of MetalLB's pools: in a CIDR, or
// between a range's two addresses (both included).
func (s *MetalLB) pooled(ip netip.Addr) bool {
	for _, pool := range s.IPPools {
		for _, a := range pool.Addresses {
			if from, to, ok := strings.Cut(a, "-"); ok {
				start, err1 := netip.ParseAddr(strings.TrimSpace(from))
				end, err2 := netip.ParseAddr(strings.TrimSpace(to))
				if err1 == nil && err2 == nil && start.Is4() == ip.Is4() && !ip.Less(start) && !end.Less(ip) {
					return true
				}
			} else if p, err := netip.ParsePrefix(a); err == nil && p.Contains(ip) {
				return true
			}
		}
	}
	return false
}

// Validate checks the Gateway's names, issuer and listeners, that
// cert-manager can issue the certificates of its HTTPS listeners, and that
// MetalLB can give it its load_balancer_ip.
func (s *Gateway) Validate(v *Validator, path string, c *Config) {
	v.label(path+".name", s.Name, "the name of the Gateway")
	v.label(path+".gateway_class_name", s.GatewayClassName, "the name of the GatewayClass")
	if s.Issuer != "" {
		v.issuerRef(path+".issuer", s.Issuer, "remove issuer and give the HTTPS listeners certificates you provide (tls_secret_name)", c)
	}
	if s.LoadBalancerIP != "" {
		if ip, err := netip.ParseAddr(s.LoadBalancerIP); err != nil || !ip.Is4() {
			v.Errorf(path+".load_balancer_ip", "%q is not an IPv4 address", s.LoadBalancerIP)
		} else if m := c.OpenCenter.Services.MetalLB; m != nil && m.Enabled && len(m.IPPools) > 0 && !m.pooled(ip) {
			// MetalLB allocates a requested address only from a pool: the
			// Service stays pending ("... is not allowed in config").
			v.Errorf(path+".load_balancer_ip", "%s is in no pool of opencenter.services.metallb.ip_pools, and MetalLB assigns a requested address only from one: the Gateway's LoadBalancer Service would stay without an address; choose an address in a pool, or add it to one", s.LoadBalancerIP)
		}
	}
	// HTTP-01 cannot prove control of a wildcard name.
	var http01 bool
	if cm := certManagerOf(c); cm != nil && s.Issuer != "" && s.Issuer == cm.IssuerName {
		http01 = cm.Issuer == CertIssuerACME && cm.DNSProvider == DNSProviderNone
	}
	names := map[string]bool{}
	protocols := map[int]ListenerProtocol{} // the first protocol listed on each port
	for i, l := range s.Listeners {
		lp := fmt.Sprintf("%s.listeners[%d]", path, i)
		if s.derivedListeners {
			if http01 && l.Protocol == ListenerHTTPS {
				v.Errorf(path+".listeners", "the default https listener serves %s, a wildcard, which ACME issues only with DNS-01: set opencenter.services.cert-manager.dns_provider to cloudflare, route53 or designate, use a selfsigned or ca issuer, set tls_secret_name to a Secret holding a certificate you provide, or list the listeners with exact hostnames", l.Hostname)
			}
			continue
		}
		v.label(lp+".name", l.Name, "the listener's name, unique within the Gateway")
		v.unique(names, lp+".name", l.Name, "listener names are unique within the Gateway")
		// Envoy Gateway (v1.5.0, the image the base pins, as 1.9:
		// validateConflictedProtocolsListeners) marks every listener of a
		// port whose listeners differ in protocol Conflicted
		// (ProtocolConflict), and routes that take a login attach to port
		// 443 trusting it is HTTPS alone.
		if p, seen := protocols[l.Port]; !seen {
			protocols[l.Port] = l.Protocol
		} else if p != l.Protocol {
			v.Errorf(lp+".protocol", "%s on port %d, where an earlier listener is %s: the Gateway API refuses listeners of one port with different protocols (ProtocolConflict); give each port one protocol", l.Protocol, l.Port, p)
		}
		if l.Port < 1 || l.Port > 65535 {
			v.Errorf(lp+".port", "%d: expected a port from 1 to 65535", l.Port)
		}
		if !v.oneOfInList(lp+".protocol", string(l.Protocol), "HTTP", "HTTPS") || l.Protocol != ListenerHTTPS {
			continue
		}
		if http01 && strings.HasPrefix(l.Hostname, "*.") {
			v.Errorf(lp+".hostname", "%q is a wildcard, which ACME issues only with DNS-01: set opencenter.services.cert-manager.dns_provider to cloudflare, route53 or designate", l.Hostname)
		}
	}
}

// Validate checks the admission controller's pod count: the chart fails
// on 0 (kyverno.deployment.replicas).
func (s *Kyverno) Validate(v *Validator, path string, c *Config) {
	if s.AdmissionReplicas != nil && *s.AdmissionReplicas < 1 {
		v.Errorf(path+".admission_replicas", "%d: expected at least 1 pod", *s.AdmissionReplicas)
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
	if s.PodCIDR == "" { // required: reported from its tag
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

// Validate checks where Grafana's admin login comes from, and that the
// cluster Gateway serves Grafana's and Alertmanager's hostnames.
func (s *KubePrometheusStack) Validate(v *Validator, path string, c *Config) {
	sec := c.Secrets.Services.KubePrometheusStack
	if sec == nil {
		sec = &KubePrometheusStackSecrets{}
	}
	v.existingSecret(path+".grafana_existing_secret", s.GrafanaExistingSecret, "secrets.services.kube-prometheus-stack", map[string]string{"grafana_admin_password": sec.GrafanaAdminPassword})
	v.alertmanagerAuth(path, s, sec)
	v.untemplated(path, "remote_write_url", s.RemoteWriteURL, "kube-prometheus-stack")
	// The values give Grafana its root_url and Alertmanager its externalUrl as https://<hostname>.
	v.routeHostname(path, "grafana_hostname", s.GrafanaHostname, published{svc: "Grafana (root_url)", https: true}, c)
	v.routeHostname(path, "alertmanager_hostname", s.AlertmanagerHostname, published{svc: "Alertmanager (externalUrl)", https: true}, c)
}

// alertmanagerAuth checks the logins of the Alertmanager the cluster
// Gateway publishes, and that they are given only where it would ask for
// them. They stay allowed while the Gateway is off (the render then
// leaves them out), so that switching the Gateway off and on needs no
// edit of the secrets.
func (v *Validator) alertmanagerAuth(path string, s *KubePrometheusStack, sec *KubePrometheusStackSecrets) {
	var why string
	switch {
	case s.AlertmanagerHostname == "":
		why = "alertmanager_hostname is empty, so Alertmanager is not published"
	case s.AlertmanagerAuth == AlertmanagerAuthNone:
		why = "alertmanager_auth is none"
	}
	v.basicAuthLogins(why, path, "kube-prometheus-stack", "alertmanager_htpasswd", s.AlertmanagerHtpasswdExistingSecret, sec.AlertmanagerHtpasswd)
}

// basicAuthLogins checks the logins of the Gateway's basic authentication
// before a service's page: the htpasswd secret at
// secrets.services.<svc>.<key>, or the Secret <key>_existing_secret names
// instead. With why set (the page is not published, or without
// authentication) either is reported as without effect.
func (v *Validator) basicAuthLogins(why, path, svc, key, existing, htpasswd string) {
	at := "secrets.services." + svc + "." + key
	if why != "" {
		v.withoutEffect(why, path+"."+key+"_existing_secret", existing, at, htpasswd)
		return
	}
	v.existingSecret(path+"."+key+"_existing_secret", existing, "secrets.services."+svc, map[string]string{key: htpasswd})
	if readable(htpasswd) {
		if line, why := htpasswdSHA(htpasswd); why != "" {
			v.Errorf(at, "line %d %s: expected lines user:{SHA}hash, the only form Envoy Gateway takes (htpasswd -nbs user 'password')", line, why)
		}
	}
}

// htpasswdSHA checks logins in the htpasswd form Envoy Gateway's basic
// authentication takes, and returns the first line that it or Envoy would
// refuse and why. Envoy Gateway (v1.5.0, the image the base pins, as 1.9:
// internal/gatewayapi, validateHtpasswdFormat) takes only
// user:{SHA}<base64 of a SHA-1>; Envoy's basic_auth filter
// (readHtpasswd) refuses an empty user and a user given twice, and reads
// a line as it is, spaces and all. Its message names no user and shows no
// hash.
func htpasswdSHA(s string) (line int, why string) {
	users := map[string]bool{}
	for i, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		user, hash, ok := strings.Cut(l, ":")
		sum, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(hash, "{SHA}"))
		switch {
		case strings.ContainsFunc(l, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
			return i + 1, "has a space or a control character"
		case !ok:
			return i + 1, "has no ':'"
		case user == "":
			return i + 1, "has no user before ':'"
		case users[user]:
			return i + 1, "names a user an earlier line names"
		case !strings.HasPrefix(hash, "{SHA}"):
			return i + 1, "is not a {SHA} hash"
		case err != nil || len(sum) != sha1.Size:
			return i + 1, "is not a {SHA} hash: its hash is not the base64 of 20 bytes"
		}
		users[user] = true
	}
	return 0, ""
}

// Validate checks the dashboard's admin login, and that the cluster Gateway
// serves its hostname.
func (s *WeaveGitOps) Validate(v *Validator, path string, c *Config) {
	var hash string
	if sec := c.Secrets.Services.WeaveGitOps; sec != nil {
		hash = sec.AdminPasswordHash
	}
	if readable(hash) && !strings.HasPrefix(hash, "$2") {
		v.Errorf("secrets.services.weave-gitops.admin_password_hash", "is not a bcrypt hash: expected $2a$..., $2b$... or $2y$... (htpasswd -nbBC 10 '' <password>)")
	}
	if s.AdminExistingSecret != "" && s.AdminExistingSecret != weaveGitOpsLogin {
		v.Errorf(path+".admin_existing_secret", "%q: the dashboard reads its admin login from the Secret %s in its namespace, a name its chart fixes: provide that Secret and set admin_existing_secret to %s", s.AdminExistingSecret, weaveGitOpsLogin, weaveGitOpsLogin)
	}
	v.existingSecret(path+".admin_existing_secret", s.AdminExistingSecret, "secrets.services.weave-gitops", map[string]string{"admin_password_hash": hash})
	// weave-gitops 4.0.36, templates/admin-user.yaml writes the user, as
	// given, as an RBAC subject and into the names of two role bindings.
	if strings.ContainsAny(s.AdminUser, "/%") {
		v.Errorf(path+".admin_user", "%q holds '/' or '%%': the chart names the role bindings %s-user-read-resources and %s-user-read-resources-cr after the user, and a role binding's name holds neither", s.AdminUser, s.AdminUser, s.AdminUser)
	}
	v.chartUnquoted(path, "admin_user", s.AdminUser, "weave-gitops")
	v.routeHostname(path, "hostname", s.Hostname, published{svc: "the Weave GitOps dashboard"}, c)
}

// weaveGitOpsLogin is the Secret the weave-gitops chart reads the admin login from.
const weaveGitOpsLogin = "cluster-user-auth"

// Validate checks that the cluster Gateway serves Headlamp's hostname, and
// where its OIDC client comes from.
func (s *Headlamp) Validate(v *Validator, path string, c *Config) {
	pub := published{svc: "Headlamp"} // a token's login, or OIDC's
	if s.OIDCEnabled {
		pub.svc, pub.https, pub.urlPath = "Headlamp (OIDC callback)", true, "/oidc-callback"
	}
	v.routeHostname(path, "hostname", s.Hostname, pub, c)
	if s.OIDCExistingSecret == "" {
		return
	}
	if !s.OIDCEnabled {
		v.Errorf(path+".oidc_existing_secret", "has no effect: oidc_enabled is false; set oidc_enabled to true or remove oidc_existing_secret")
	}
	if s.OIDCIssuerURL != "" {
		v.Errorf(path+".oidc_issuer_url", "is not used: %s.oidc_existing_secret names the Secret holding the OIDC client (OIDC_ISSUER_URL); remove one of them", path)
	}
	if sec := c.Secrets.Services.Headlamp; sec != nil {
		v.existingSecret(path+".oidc_existing_secret", s.OIDCExistingSecret, "secrets.services.headlamp", map[string]string{"oidc_client_secret": sec.OIDCClientSecret})
	}
}

// Validate checks where the cloud controller manager's cloud.conf comes from.
func (s *OpenStackCCM) Validate(v *Validator, path string, c *Config) {
	v.cloudConf(path, s.ExistingSecret, s.AuthURL, s.Region, "openstack-ccm", c.Secrets.Services.OpenStackCCM)
}

// cloudConf reports the parts of a rendered cloud.conf given beside an
// existing Secret holding the whole of it.
func (v *Validator) cloudConf(path, existing, authURL, region, key string, sec interface{ credentials() (string, string) }) {
	if existing == "" {
		return
	}
	if authURL != "" {
		v.Errorf(path+".auth_url", "is not used: %s.existing_secret names the Secret holding cloud.conf; remove one of them", path)
	}
	if region != "" {
		v.Errorf(path+".region", "is not used: %s.existing_secret names the Secret holding cloud.conf; remove one of them", path)
	}
	id, secret := sec.credentials()
	v.existingSecret(path+".existing_secret", existing, "secrets.services."+key, map[string]string{"application_credential_id": id, "application_credential_secret": secret})
}

// Validate checks the StorageClass of the Cinder CSI driver and where its cloud.conf comes from.
func (s *OpenStackCSI) Validate(v *Validator, path string, c *Config) {
	v.cloudConf(path, s.ExistingSecret, s.AuthURL, s.Region, "openstack-csi", c.Secrets.Services.OpenStackCSI)
	v.label(path+".storage_class_name", s.StorageClassName, "the name of the Cinder StorageClass")
}

// maxVSphereClusterID bounds the vSphere CSI driver's cluster-id in bytes.
const maxVSphereClusterID = 64

// Validate checks the csi-vsphere.conf of the vSphere CSI driver.
func (s *VSphereCSI) Validate(v *Validator, path string, c *Config) {
	if s.Port < 1 || s.Port > 65535 {
		v.Errorf(path+".port", "%d: expected a port from 1 to 65535", s.Port)
	}
	v.label(path+".storage_class_name", s.StorageClassName, "the name of the vSphere StorageClass")
	// The driver (v3.5.0) caps the cluster id at 64 bytes.
	if len(s.ClusterID) > maxVSphereClusterID {
		v.Errorf(path+".cluster_id", "is %d bytes long: the vSphere CSI driver takes a cluster id of at most %d", len(s.ClusterID), maxVSphereClusterID)
	}
	if s.ExistingSecret != "" {
		for _, f := range []struct{ key, value string }{{"vcenter_host", s.VCenterHost}, {"datacenter", s.Datacenter}} {
			if f.value != "" {
				v.Errorf(path+"."+f.key, "is not used: %s.existing_secret names the Secret holding csi-vsphere.conf; remove one of them", path)
			}
		}
		if sec := c.Secrets.Services.VSphereCSI; sec != nil {
			v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.services.vsphere-csi", map[string]string{"username": sec.Username, "password": sec.Password})
		}
	}
}

// Validate checks where alert-proxy's token comes from, that it has an
// Alertmanager to ask, and a domain for its tickets' links.
func (s *AlertProxy) Validate(v *Validator, path string, c *Config) {
	if sec := c.Secrets.ManagedServices.AlertProxy; sec != nil {
		v.existingSecret(path+".existing_secret", s.ExistingSecret, "secrets.managed_services.alert-proxy", map[string]string{"api_token": sec.APIToken})
	}
	if kps := c.OpenCenter.Services.KubePrometheusStack; s.AlertmanagerURL == "" && (kps == nil || !kps.Enabled) {
		v.Errorf(path+".alertmanager_url", "required when services.kube-prometheus-stack is not enabled: alert-proxy asks Alertmanager's API whether an alert still fires before it opens a ticket")
	}
	if s.LinksDomain == "" && c.OpenCenter.Cluster.BaseDomain == "" {
		v.Errorf(path+".links_domain", "required when cluster.base_domain is not set: the domain of the Grafana, Alertmanager and Prometheus links on tickets")
	}
}

// Validate checks Longhorn's replica count, that the cluster Gateway
// serves its UI's hostname, and the UI's logins.
func (s *Longhorn) Validate(v *Validator, path string, c *Config) {
	if s.DefaultReplicaCount < 1 || s.DefaultReplicaCount > 20 {
		v.Errorf(path+".default_replica_count", "%d: expected 1 to 20 replicas per volume", s.DefaultReplicaCount)
	}
	v.routeHostname(path, "hostname", s.Hostname, published{svc: "the Longhorn UI"}, c)
	sec := c.Secrets.Services.Longhorn
	if sec == nil {
		sec = &LonghornSecrets{}
	}
	var why string
	switch {
	case s.Hostname == "":
		why = "hostname is empty, so the Longhorn UI is not published"
	case s.UIAuth == LonghornUIAuthNone:
		why = "ui_auth is none"
	}
	v.basicAuthLogins(why, path, "longhorn", "ui_htpasswd", s.UIHtpasswdExistingSecret, sec.UIHtpasswd)
}

// Validate checks the namespaces the operator watches: its
// watched_namespace (v1.14.0, pkg/controller/controller.go) is one
// namespace or "*" for all, and the operator exits at start when it names
// no namespace, as "a,b" does.
func (s *PostgresOperator) Validate(v *Validator, path string, c *Config) {
	if len(s.WatchedNamespaces) > 1 {
		v.Errorf(path+".watched_namespaces", "lists %d namespaces: the Zalando operator watches one namespace or all of them, and exits at start on a list; name one namespace, or none for all", len(s.WatchedNamespaces))
		return
	}
	// Keycloak's database is a postgresql resource in Keycloak's namespace.
	if kc := c.OpenCenter.Services.Keycloak; kc != nil && kc.Enabled && len(s.WatchedNamespaces) == 1 && s.WatchedNamespaces[0] != kc.Namespace {
		v.Errorf(path+".watched_namespaces", "watches only %s: Keycloak's database, a postgresql resource in namespace %s, would never be created; watch %s, or all namespaces (none listed)", s.WatchedNamespaces[0], kc.Namespace, kc.Namespace)
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
	if r := s.TraceSamplingRatio; r != nil && (*r < 0 || *r > 1) {
		v.Errorf(path+".trace_sampling_ratio", "%g: expected a fraction from 0.0 to 1.0", *r)
	}
	v.untemplated(path, "otlp_endpoint", s.OTLPEndpoint, "opentelemetry-kube-stack")
	v.unexpanded(path, "otlp_endpoint", s.OTLPEndpoint, "OTLP endpoint", expandedByCollector)
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
