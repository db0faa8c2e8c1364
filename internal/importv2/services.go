package importv2

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// ours are the service names of opencenter.services, from its type.
var ours = func() map[string]bool {
	names := map[string]bool{}
	st := reflect.TypeFor[config.Services]()
	for i := range st.NumField() {
		if n, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ","); n != "" && n != "-" {
			names[n] = true
		}
	}
	return names
}()

// sourced are the services whose type embeds config.Sourced: they take a
// source override, the others refuse one.
var sourced = func() map[string]bool {
	names := map[string]bool{}
	st := reflect.TypeFor[config.Services]()
	for i := range st.NumField() {
		f := st.Field(i)
		n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Type.Kind() == reflect.Pointer && f.Type.Implements(reflect.TypeFor[config.SourcedService]()) {
			names[n] = true
		}
	}
	return names
}()

// renames are the typed fields each service keeps under another name (or
// the same), by openCenter-cli's name; sizes are in GB.
var renames = map[string]map[string]string{
	"cert-manager":          {"email": "acme_email", "letsencrypt_server": "acme_server"},
	"headlamp":              {"hostname": "hostname"},
	"keycloak":              {"hostname": "hostname", "client_id": "oidc_client_id", "instances": "instances", "max_replicas": "max_replicas", "backup_enabled": "backup_enabled", "backup_schedule": "backup_schedule"},
	"loki":                  {"storage_type": "storage", "bucket_name": "bucket", "s3_endpoint": "endpoint", "s3_region": "region", "storage_class": "storage_class"},
	"tempo":                 {"bucket_name": "bucket", "s3_endpoint": "endpoint", "s3_region": "region", "storage_class": "storage_class"},
	"longhorn":              {"hostname": "hostname", "default_replica_count": "default_replica_count", "default_data_path": "data_path"},
	"velero":                {"backup_bucket": "bucket", "region": "region"},
	"harbor":                {"hostname": "hostname", "s3_bucket": "bucket", "emit_certificate": "emit_certificate"},
	"kube-prometheus-stack": {"hostname": "grafana_hostname"},
}

var sizes = map[string]map[string]string{
	"loki":                  {"volume_size": "storage_size"},
	"tempo":                 {"volume_size": "storage_size"},
	"harbor":                {"registry_volume_size": "storage_size"},
	"kube-prometheus-stack": {"grafana_volume_size": "grafana_storage_size", "prometheus_volume_size": "prometheus_storage_size"},
}

func (t *translation) services(f facts) {
	svcs, _ := t.in["opencenter"].(map[string]any)["services"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(svcs)) {
		s, ok := svcs[name].(map[string]any)
		if !ok || !ours[name] {
			continue // such as fluxcd, bootstrap's: to the report
		}
		from := []string{"opencenter", "services", name}
		if on, _ := s["enabled"].(bool); !on {
			t.take(append(from, "enabled")...) // a service off is left out
			continue
		}
		if why, ok := neverApplied[name]; ok {
			t.take(append(from, "enabled")...)
			t.r.Decide = append(t.r.Decide, "opencenter.services."+name+": "+why)
			continue
		}
		to := "opencenter.services." + name + "."
		t.copy(to+"enabled", append(from, "enabled")...)
		mode, ok := t.take(append(from, "adoption_mode")...)
		if why, external := externalUnlessSaid[name]; external && !ok {
			mode, ok = "external", true
			t.r.Decide = append(t.r.Decide, to+"adoption_mode: "+why)
		}
		if ok && mode != "managed" {
			t.set(to+"adoption_mode", mode)
		}
		if v, ok := t.take(append(from, "override_values")...); ok {
			t.overrideValues(name, fmt.Sprint(v))
		}
		if name == "metallb" {
			if v, ok := t.take(append(from, "ip_address_pools")...); ok {
				t.set(to+"ip_pools", v)
			}
		}
		for theirs, ours := range renames[name] {
			t.copy(to+ours, append(from, theirs)...)
		}
		if sourced[name] {
			for _, k := range []string{"repo", "branch", "release"} {
				t.copy(to+"source."+k, append(from, "source", k)...)
			}
		}
		for theirs, ours := range sizes[name] {
			t.size(to+ours, append(from, theirs)...)
		}
	}
	if t.enabled("calico") {
		t.copy("opencenter.services.calico.pod_cidr", "opencenter", "cluster", "kubernetes", "subnet_pods")
	}
	os := []string{"opencenter", "infrastructure", "cloud", "openstack"}
	for _, svc := range []string{"openstack-ccm", "openstack-csi"} {
		if !t.enabled(svc) {
			continue
		}
		for _, k := range []string{"auth_url", "region"} {
			if v, ok := t.peek(append(os, k)...); ok {
				t.set("opencenter.services."+svc+"."+k, v)
			}
		}
		for _, k := range []string{"application_credential_id", "application_credential_secret"} {
			if v, ok := t.peek(append(os, k)...); ok && v != Placeholder {
				t.set("secrets.services."+svc+"."+k, v)
			} else {
				t.r.Decide = append(t.r.Decide, "secrets.services."+svc+"."+k+": the OpenStack application credential (openCenter-cli's init left it "+Placeholder+")")
			}
		}
	}
	if t.enabled("openstack-ccm") {
		t.copy("opencenter.services.openstack-ccm.floating_network_id", append(os, "networking", "floating_network_id")...)
		t.copy("opencenter.services.openstack-ccm.subnet_id", append(os, "networking", "subnet_id")...)
	}
	for _, k := range []string{"auth_url", "region", "application_credential_id", "application_credential_secret"} {
		t.take(append(os, k)...)
	}
	t.vsphereCSI()
	t.lokiSwift()
	if f.kpsHostname != "" && t.enabled("kube-prometheus-stack") {
		t.r.Decide = append(t.r.Decide, "opencenter.services.kube-prometheus-stack.alertmanager_hostname: openCenter-cli published Prometheus, Alertmanager and Grafana all at "+f.kpsHostname+", now grafana_hostname; give Alertmanager a hostname of its own to keep publishing it")
	}
	if f.veleroBucket != "" && f.veleroBucket != f.name+"-velero" && t.enabled("velero") {
		t.r.Decide = append(t.r.Decide, "opencenter.services.velero.bucket: "+f.veleroBucket+", from backup_bucket, which openCenter-cli ignored: its backups went to "+f.name+"-velero")
	}
	t.tempoStorage()
	if t.enabled("velero") {
		t.r.Decide = append(t.r.Decide, "opencenter.services.velero.provider: openCenter-cli's Velero ran the OpenStack plugin (Swift, Secret cloud-credentials); opencenter's runs the AWS plugin against an S3 API, such as Swift's at s3_url https://swift.api.<region>.rackspacecloud.com, with S3 keys (secrets or existing_secret); backups the OpenStack plugin made are not readable by it")
	}
}

// tempoStorage takes Tempo's storage_type, but for Swift, which ours does
// not take; a disabled Tempo's stays for the report.
func (t *translation) tempoStorage() {
	if !t.enabled("tempo") {
		return
	}
	v, ok := t.take("opencenter", "services", "tempo", "storage_type")
	switch {
	case !ok:
	case v == "swift":
		t.r.Decide = append(t.r.Decide, "opencenter.services.tempo.storage: swift, which opencenter's Tempo does not take: use s3 with Swift's S3 API as endpoint (https://swift.api.<region>.rackspacecloud.com) and S3 keys")
	default:
		t.set("opencenter.services.tempo.storage", v)
	}
}

// lokiSwift takes Loki's Swift settings, which openCenter-cli keeps in
// keys of their own, into the fields ours shares with S3: the Keystone
// URL as endpoint, the container as bucket, the application credential
// as the access key pair.
func (t *translation) lokiSwift() {
	if v, _ := t.get("opencenter.services.loki.storage"); v != "swift" || !t.enabled("loki") {
		return
	}
	const to = "opencenter.services.loki."
	from := []string{"opencenter", "services", "loki"}
	t.copy(to+"endpoint", append(from, "swift_auth_url")...)
	if v, ok := t.take(append(from, "swift_region")...); ok && v != "" {
		t.set(to+"region", v)
	}
	if v, ok := t.take(append(from, "swift_container_name")...); ok && v != "" {
		t.set(to+"bucket", v) // wins over bucket_name, as in openCenter-cli
	}
	t.copy("secrets.services.loki.access_key_id", append(from, "swift_application_credential_id")...)
	t.copy("secrets.services.loki.secret_access_key", "secrets", "loki", "swift_application_credential_secret")
}

// vsphereCSI takes the vCenter connection from secrets.vsphere_csi,
// where openCenter-cli keeps it, falling back on
// infrastructure.cloud.vmware for the host and datacenter.
func (t *translation) vsphereCSI() {
	if !t.enabled("vsphere-csi") {
		return
	}
	const to = "opencenter.services.vsphere-csi."
	sec := []string{"secrets", "vsphere_csi"}
	vmw := []string{"opencenter", "infrastructure", "cloud", "vmware"}
	for k, from := range map[string][2][]string{
		"vcenter_host": {append(sec, "vcenter_host"), append(vmw, "vcenter_server")},
		"datacenter":   {append(sec, "datacenters"), append(vmw, "datacenter")},
	} {
		if v, ok := t.peek(from[0]...); ok && v != Placeholder && v != "" {
			t.copy(to+k, from[0]...)
			continue
		}
		t.take(from[0]...)
		t.copy(to+k, from[1]...)
	}
	t.copy(to+"datastore_url", append(sec, "datastoreurl")...)
	if v, ok := t.take(append(sec, "port")...); ok {
		if n, err := strconv.Atoi(fmt.Sprint(v)); err == nil && n != 443 {
			t.set(to+"port", n)
		}
	}
	if v, ok := t.take(append(sec, "insecure_flag")...); ok {
		if b, err := strconv.ParseBool(fmt.Sprint(v)); err == nil && b {
			t.set(to+"insecure_flag", true)
		}
	}
	for _, k := range []string{"username", "password"} {
		t.copy("secrets.services.vsphere-csi."+k, append(sec, k)...)
	}
}

// neverApplied are the services openCenter-cli writes files for that no
// Flux unit of its tree applies: importing them enabled would start
// something the cluster never ran.
var neverApplied = map[string]string{
	"etcd-backup": "not enabled: openCenter-cli copies its CronJob into the overlay, but no Flux unit applies it, so its etcd backups never ran; 'opencenter enable etcd-backup --set bucket=...' starts them",
}

// externalUnlessSaid are the services openCenter-cli renders but never
// applies, installed by the provisioner instead: imported as external,
// unless the config names a mode.
var externalUnlessSaid = map[string]string{
	"calico": "external: openCenter-cli renders Calico but lists its Flux unit in no kustomization, so the running Calico is the provisioner's (kubespray); managed would make Flux install a second one over it",
}

// typedValues are override_values keys opencenter models as fields, by
// service: an override_values holding only such keys becomes the fields.
var typedValues = map[string]map[string]string{
	"sealed-secrets": {"keyrenewperiod": "key_renew_period"},
}

// overrideValues moves a service's override_values to its typed fields
// when it holds only modelled keys, else to its local/values.yaml.
func (t *translation) overrideValues(svc, text string) {
	var m map[string]any
	typed := typedValues[svc]
	if err := yaml.Unmarshal([]byte(text), &m); err == nil && len(m) > 0 && len(typed) > 0 {
		all := true
		for k := range m {
			if _, ok := typed[k]; !ok {
				all = false
			}
		}
		if all {
			for k, v := range m {
				t.set("opencenter.services."+svc+"."+typed[k], fmt.Sprint(v))
			}
			return
		}
	}
	t.r.LocalValues[svc] = text
}

// secretRenames are openCenter-cli's per-service secrets (secrets.<key>)
// that opencenter keeps under secrets.services.<service>.<field>.
var secretRenames = map[string][2]string{
	"loki.s3_access_key_id":       {"loki", "access_key_id"},
	"loki.s3_secret_access_key":   {"loki", "secret_access_key"},
	"keycloak.admin_password":     {"keycloak", "admin_password"},
	"headlamp.oidc_client_secret": {"headlamp", "oidc_client_secret"},
	"grafana.admin_password":      {"kube-prometheus-stack", "grafana_admin_password"},
	"tempo.access_key":            {"tempo", "access_key_id"},
	"tempo.secret_key":            {"tempo", "secret_access_key"},
}

func (t *translation) secrets() {
	for _, k := range slices.Sorted(maps.Keys(secretRenames)) {
		to := secretRenames[k]
		if !t.enabled(to[0]) {
			continue
		}
		path := append([]string{"secrets"}, strings.Split(k, ".")...)
		if v, ok := t.take(path...); ok {
			if v == Placeholder {
				continue // init's placeholder: the service's validation asks for what it needs
			}
			t.set("secrets.services."+to[0]+"."+to[1], v)
		}
	}
}

// certManager derives cert-manager's issuer from the DNS credential
// openCenter-cli renders one from (secrets.cert_manager.aws.<name>);
// without one, it rendered only its self-signed CA chain.
func (t *translation) certManager(f facts) {
	if !t.enabled("cert-manager") {
		return
	}
	const to = "opencenter.services.cert-manager."
	if v, _ := t.take("opencenter", "services", "cert-manager", "dns_provider"); v == "designate" {
		t.designate(f)
		return
	}
	aws, _ := t.peek("secrets", "cert_manager", "aws")
	creds, _ := aws.(map[string]any)
	var on []string
	for _, name := range slices.Sorted(maps.Keys(creds)) {
		if c, _ := creds[name].(map[string]any); c["enabled"] == true {
			on = append(on, name)
		}
	}
	switch len(on) {
	case 0:
		const chain = "openCenter-cli rendered no ACME issuer without a DNS credential, only its self-signed CA chain (ClusterIssuer rackspace-ca, CA in Secret rackspace-root-secret)"
		switch {
		case t.has(to + "issuer"):
		case t.has(to + "acme_email"):
			t.set(to+"issuer", "acme")
			t.r.Derived = append(t.r.Derived, Item{Path: to + "issuer", Value: "acme", Why: "the config names an ACME email"})
			t.r.Decide = append(t.r.Decide, to+"issuer: acme, solving HTTP-01 through the Gateway, because the config names an ACME email; "+chain+": to keep that, issuer: ca, issuer_name: rackspace-ca, ca_secret_name: rackspace-root-secret")
		default:
			t.r.Decide = append(t.r.Decide, to+"issuer: "+chain+"; to keep it: issuer: ca, issuer_name: rackspace-ca, ca_secret_name: rackspace-root-secret; or an ACME issuer")
		}
	case 1:
		c := []string{"secrets", "cert_manager", "aws", on[0]}
		t.take(append(c, "enabled")...)
		for _, kv := range [][2]string{{"issuer", "acme"}, {"dns_provider", "route53"}, {"issuer_name", "letsencrypt-" + on[0]}} {
			k, v := kv[0], kv[1]
			if !t.has(to + k) {
				t.set(to+k, v)
				t.r.Derived = append(t.r.Derived, Item{Path: to + k, Value: v, Why: "the ACME issuer openCenter-cli renders from the Route 53 credential " + on[0]})
			}
		}
		t.copy(to+"route53_region", append(c, "region")...)
		t.copy("secrets.services.cert-manager.route53_access_key_id", append(c, "aws_access_key")...)
		t.copy("secrets.services.cert-manager.route53_secret_access_key", append(c, "aws_secret_access_key")...)
		if !t.has(to + "acme_email") {
			t.set(to+"acme_email", "mpk-support@rackspace.com")
			t.r.Derived = append(t.r.Derived, Item{Path: to + "acme_email", Value: "mpk-support@rackspace.com", Why: "the ACME account openCenter-cli registers when the config names none"})
		}
	default:
		t.r.Decide = append(t.r.Decide, to+"issuer: openCenter-cli rendered one ACME issuer per enabled credential ("+strings.Join(on, ", ")+"); opencenter renders one: choose it")
	}
}

// designate derives the ACME issuer openCenter-cli renders for
// dns_provider designate: DNS-01 through OpenStack Designate, with the
// cloud's Keystone URL, region and application credential.
func (t *translation) designate(f facts) {
	const to = "opencenter.services.cert-manager."
	for _, kv := range [][2]string{{"issuer", "acme"}, {"dns_provider", "designate"}, {"issuer_name", "letsencrypt-designate"}, {"designate_auth_url", f.osAuthURL}, {"designate_region", f.osRegion}} {
		k, v := kv[0], kv[1]
		if v != "" && !t.has(to+k) {
			t.set(to+k, v)
			t.r.Derived = append(t.r.Derived, Item{Path: to + k, Value: v, Why: "the Designate ACME issuer openCenter-cli renders"})
		}
	}
	for _, kv := range [][2]string{{"designate_application_credential_id", f.osCredID}, {"designate_application_credential_secret", f.osCredSecret}} {
		k, v := kv[0], kv[1]
		if v != "" {
			t.set("secrets.services.cert-manager."+k, v)
		} else {
			t.r.Decide = append(t.r.Decide, "secrets.services.cert-manager."+k+": the OpenStack application credential for Designate (openCenter-cli's init left it "+Placeholder+")")
		}
	}
}
