package importv2

import (
	"fmt"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// facts are what the derivations read of the input.
type facts struct {
	fqdn         string // opencenter.cluster.cluster_fqdn
	name         string // opencenter.meta.name
	clusterName  string // opencenter.cluster.cluster_name
	region       string // opencenter.meta.region
	provider     string // opencenter.infrastructure.provider, ours
	osRegion     string // infrastructure.cloud.openstack.region
	osAuthURL    string // infrastructure.cloud.openstack.auth_url
	osCredID     string // its application_credential_id
	osCredSecret string // its application_credential_secret
	storage      string // infrastructure.storage.default_storage_class
	vxlan, ipip  string // cluster.kubernetes.network_plugin.calico modes

	keycloakHost string // services.keycloak.hostname, else auth.<fqdn>
	kpsHostname  string // services.kube-prometheus-stack.hostname
	veleroBucket string // services.velero.backup_bucket
}

// readFacts reads the facts off the input, before the translation
// consumes it.
func (t *translation) readFacts() facts {
	str := func(path ...string) string {
		v, ok := t.peek(path...)
		if !ok || v == nil || v == Placeholder {
			return ""
		}
		return fmt.Sprint(v)
	}
	o, calico := "opencenter", []string{"opencenter", "cluster", "kubernetes", "network_plugin", "calico"}
	f := facts{
		fqdn:         str(o, "cluster", "cluster_fqdn"),
		name:         str(o, "meta", "name"),
		clusterName:  str(o, "cluster", "cluster_name"),
		region:       str(o, "meta", "region"),
		provider:     str(o, "infrastructure", "provider"),
		osRegion:     str(o, "infrastructure", "cloud", "openstack", "region"),
		osAuthURL:    str(o, "infrastructure", "cloud", "openstack", "auth_url"),
		osCredID:     str(o, "infrastructure", "cloud", "openstack", "application_credential_id"),
		osCredSecret: str(o, "infrastructure", "cloud", "openstack", "application_credential_secret"),
		storage:      str(o, "infrastructure", "storage", "default_storage_class"),
		vxlan:        str(append(calico, "vxlan_mode")...),
		ipip:         str(append(calico, "ipip_mode")...),

		keycloakHost: str(o, "services", "keycloak", "hostname"),
		kpsHostname:  str(o, "services", "kube-prometheus-stack", "hostname"),
		veleroBucket: str(o, "services", "velero", "backup_bucket"),
	}
	if f.name == "" {
		f.name = f.clusterName
	}
	if f.keycloakHost == "" && f.fqdn != "" {
		f.keycloakHost = "auth." + f.fqdn
	}
	if f.provider == "vsphere" {
		f.provider = "vmware"
	}
	if !config.IsDNSSubdomain(f.storage) {
		f.storage = "" // such as init's "Performance": no StorageClass has that name
	}
	return f
}

// derivation is a value openCenter-cli renders for a key its config
// leaves out (FIELDMAP.md, "derive"). The importer writes it, so that the
// cluster keeps what it runs.
type derivation struct {
	path  string          // under opencenter.services; the first key is the service
	value func(facts) any // nil derives nothing
	why   string          // what openCenter-cli renders
}

// needs are, by derivation, the output paths that must be set for it to
// apply: Keycloak's route needs a Gateway and a hostname.
var needs = map[string][]string{
	"keycloak.gateway_route":   {"opencenter.services.gateway.enabled", "opencenter.services.keycloak.hostname"},
	"headlamp.oidc_issuer_url": {"opencenter.services.keycloak.enabled"},
}

// swift is the Swift S3 endpoint openCenter-cli renders for object stores.
func swift(f facts) any {
	if f.region == "" {
		return nil
	}
	return "https://swift.api." + f.region + ".rackspacecloud.com"
}

// under returns a hostname prefix.<fqdn>, nil without an FQDN.
func under(prefix string) func(facts) any {
	return func(f facts) any {
		if f.fqdn == "" {
			return nil
		}
		return prefix + "." + f.fqdn
	}
}

// named returns <meta.name>-suffix (or <cluster_name>-suffix).
func named(suffix string, cluster bool) func(facts) any {
	return func(f facts) any {
		if cluster {
			return f.clusterName + "-" + suffix
		}
		return f.name + "-" + suffix
	}
}

func fixed(v any) func(facts) any { return func(facts) any { return v } }

func metaRegion(f facts) any {
	if f.region == "" {
		return nil
	}
	return f.region
}

// derivations, in the order they are written and listed.
var derivations = []derivation{
	{"calico.encapsulation", calicoEncapsulation, "Calico's encapsulation, from cluster.kubernetes.network_plugin.calico's vxlan_mode and ipip_mode"},
	{"calico.pod_cidr", fixed("10.42.0.0/16"), "Calico's pod CIDR when cluster.kubernetes.subnet_pods is absent"},
	{"gateway.name", fixed("rmpk-gateway"), "the Gateway's name, so that it keeps its address"},
	{"gateway.namespace", fixed("rackspace-system"), "the Gateway's namespace"},
	{"gateway.gateway_class_name", fixed("eg"), "the GatewayClass"},
	{"keycloak.hostname", under("auth"), "Keycloak's hostname"},
	{"keycloak.gateway_route", fixed(true), "Keycloak's HTTPRoute"},
	{"keycloak.oidc_client_id", fixed("opencenter"), "the realm's OIDC client"},
	{"keycloak.instances", fixed(3), "Keycloak's instances"},
	{"keycloak.db_storage_size", func(f facts) any {
		if f.provider == "kind" {
			return "5Gi"
		}
		return "20Gi"
	}, "the Keycloak database volume"},
	{"keycloak.storage_class", func(f facts) any { return nilIfEmpty(f.storage) }, "the Keycloak database's storage class, infrastructure.storage.default_storage_class"},
	{"headlamp.hostname", under("headlamp"), "Headlamp's hostname"},
	{"headlamp.oidc_enabled", fixed(true), "Headlamp's OIDC login"},
	{"headlamp.oidc_client_id", fixed("opencenter"), "Headlamp's OIDC client"},
	{"headlamp.oidc_issuer_url", func(f facts) any {
		if f.keycloakHost == "" {
			return nil
		}
		return "https://" + f.keycloakHost + "/realms/opencenter"
	}, "Headlamp's OIDC issuer, Keycloak's realm opencenter"},
	{"kube-prometheus-stack.grafana_hostname", under("grafana"), "Grafana's hostname"},
	{"kube-prometheus-stack.alertmanager_hostname", func(f facts) any {
		if f.kpsHostname != "" {
			return nil // one hostname for all three: to decide
		}
		return under("alertmanager")(f)
	}, "Alertmanager's hostname"},
	{"loki.storage", fixed("s3"), "Loki's storage"},
	{"loki.bucket", named("loki", false), "Loki's bucket"},
	{"loki.endpoint", swift, "Loki's S3 endpoint"},
	{"loki.region", metaRegion, "Loki's S3 region"},
	{"tempo.storage", fixed("s3"), "Tempo's storage"},
	{"tempo.bucket", named("tempo", false), "Tempo's bucket"},
	{"tempo.endpoint", swift, "Tempo's S3 endpoint"},
	{"tempo.region", metaRegion, "Tempo's S3 region"},
	{"mimir.storage", fixed("s3"), "Mimir's storage"},
	{"mimir.bucket", named("mimir", true), "Mimir's bucket"},
	{"mimir.endpoint", swift, "Mimir's S3 endpoint"},
	{"mimir.region", metaRegion, "Mimir's S3 region"},
	{"harbor.hostname", under("harbor"), "Harbor's listener"},
	{"velero.bucket", named("velero", false), "Velero's bucket, whatever backup_bucket says"},
	{"velero.region", func(f facts) any {
		if f.osRegion != "" {
			return f.osRegion
		}
		return metaRegion(f)
	}, "Velero's region, infrastructure.cloud.openstack.region"},
	{"kafka-cluster.cluster_name", fixed("kafka-cluster"), "the Kafka cluster's name, which Mimir's values address"},
	{"kafka-cluster.kafka_version", fixed("4.1.1"), "the Kafka version"},
	{"kafka-cluster.storage_size", fixed("20Gi"), "the brokers' volumes"},
	{"vsphere-csi.cluster_id", func(f facts) any { return nilIfEmpty(f.name) }, "the vSphere CSI cluster ID, meta.name"},
	{"vsphere-csi.storage_class_name", func(f facts) any { return nilIfEmpty(f.storage) }, "the vSphere StorageClass, infrastructure.storage.default_storage_class"},
	{"vsphere-csi.default_storage_class", func(f facts) any {
		if f.storage == "" {
			return nil
		}
		return true
	}, "the vSphere StorageClass as the default"},
	{"weave-gitops.hostname", under("gitops"), "Weave GitOps' listener"},
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// calicoEncapsulation maps openCenter-cli's two Calico modes as its
// values template does: VXLAN first, then IP-in-IP, else VXLAN (never
// None). Our default is VXLAN, so only the others are written.
func calicoEncapsulation(f facts) any {
	enc := "VXLAN"
	switch {
	case f.vxlan == "Always":
	case f.vxlan == "CrossSubnet":
		enc = "VXLANCrossSubnet"
	case f.ipip == "Always":
		enc = "IPIP"
	case f.ipip == "CrossSubnet":
		enc = "IPIPCrossSubnet"
	}
	if enc == "VXLAN" {
		return nil
	}
	return enc
}

// derive writes each derivation of an enabled service whose key the
// output does not have yet, and lists it.
func (t *translation) derive(f facts) {
	for _, d := range derivations {
		svc, _, _ := strings.Cut(d.path, ".")
		to := "opencenter.services." + d.path
		if !t.enabled(svc) || t.has(to) || !t.hasAll(needs[d.path]) {
			continue
		}
		v := d.value(f)
		if v == nil {
			continue
		}
		t.set(to, v)
		t.r.Derived = append(t.r.Derived, Item{Path: to, Value: fmt.Sprint(v), Why: d.why})
	}
}

// get returns the value at the dotted path of the output.
func (t *translation) get(path string) (any, bool) {
	return lookup(t.out, strings.Split(path, ".")...)
}

// hasAll reports whether the output has a value at each path.
func (t *translation) hasAll(paths []string) bool {
	for _, p := range paths {
		if !t.has(p) {
			return false
		}
	}
	return true
}

// has reports whether the output has a value at the dotted path.
func (t *translation) has(path string) bool {
	_, ok := t.get(path)
	return ok
}
