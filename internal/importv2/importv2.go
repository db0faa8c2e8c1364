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

// Placeholder is the value openCenter-cli's cluster init writes where the
// user has to give one.
const Placeholder = "CHANGEME"

// Result is one config translated.
type Result struct {
	// ClusterName is opencenter.cluster.cluster_name, which names the
	// output file .<cluster>-config.yaml.
	ClusterName string
	// Config is the config in opencenter's format, JSON-shaped; secrets
	// are still in plaintext under secrets: for the caller to encrypt.
	Config map[string]any
	// LocalValues holds, by service, the YAML text of its override_values,
	// for the unit's local/values.yaml.
	LocalValues map[string]string
	// Report lists the keys the translation did not carry over.
	Report []Item
	// Derived lists the values written that the input did not hold:
	// what openCenter-cli rendered in their place.
	Derived []Item
	// Dropped counts the rendering keys left out because they held
	// openCenter-cli's defaults (clidefaults.yaml).
	Dropped int
	// Decide lists what the user must still give or choose.
	Decide []string
}

// Item is one key of the input that opencenter does not model.
type Item struct {
	// Path is the key's dotted path in the input.
	Path string
	// Value is its value, "(secret)" under secrets:.
	Value string
	// Why says, for a derived value, what openCenter-cli renders.
	Why string
}

// SetDefault sets the value at a dotted path of the config unless it has
// one, and reports whether it did.
func (r *Result) SetDefault(path string, v any) bool {
	t := &translation{out: r.Config}
	if t.has(path) {
		return false
	}
	t.set(path, v)
	return true
}

// Translate reads an openCenter-cli v2 config (name is its file, for
// messages) and returns it in opencenter's format.
func Translate(name string, data []byte) (*Result, error) {
	var in map[string]any
	if err := yaml.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if in == nil {
		return nil, fmt.Errorf("%s: empty: expected an openCenter-cli v2 cluster config", name)
	}
	if v, ok := in["schema_version"]; ok {
		if fmt.Sprint(v) != "2.0" {
			return nil, fmt.Errorf("%s: schema_version %v: expected \"2.0\", openCenter-cli's v2 format", name, v)
		}
		delete(in, "schema_version")
	}
	t := &translation{in: in, out: map[string]any{}, r: &Result{LocalValues: map[string]string{}}}
	if err := t.run(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t.r.Config = t.out
	t.report("", t.in)
	slices.SortFunc(t.r.Report, func(a, b Item) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(t.r.Decide)
	return t.r, nil
}

// translation consumes the input as it maps it: what is left of in at the
// end is the report.
type translation struct {
	in, out map[string]any
	r       *Result
}

// take removes the value at path from the input and returns it.
func (t *translation) take(path ...string) (any, bool) {
	m := t.in
	for i, k := range path {
		v, ok := m[k]
		if !ok {
			return nil, false
		}
		if i == len(path)-1 {
			delete(m, k)
			prune(t.in, path[:i])
			return v, true
		}
		if m, ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return nil, false
}

// prune removes the empty mappings along path, innermost first.
func prune(root map[string]any, path []string) {
	for n := len(path); n > 0; n-- {
		m := root
		for _, k := range path[:n-1] {
			m = m[k].(map[string]any)
		}
		if sub, ok := m[path[n-1]].(map[string]any); ok && len(sub) == 0 {
			delete(m, path[n-1])
		}
	}
}

// set writes v at the dotted path of the output.
func (t *translation) set(path string, v any) {
	keys := strings.Split(path, ".")
	m := t.out
	for _, k := range keys[:len(keys)-1] {
		sub, ok := m[k].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[k] = sub
		}
		m = sub
	}
	m[keys[len(keys)-1]] = v
}

// copy moves the scalar at from (input) to to (output); a placeholder is
// listed to decide instead.
func (t *translation) copy(to string, from ...string) bool {
	v, ok := t.take(from...)
	if !ok || v == nil || v == "" {
		return false
	}
	if v == Placeholder {
		t.r.Decide = append(t.r.Decide, to+": openCenter-cli's init left it "+Placeholder)
		return false
	}
	t.set(to, v)
	return true
}

// size moves a size in GB (an integer) to a quantity NGi.
func (t *translation) size(to string, from ...string) {
	v, ok := t.take(from...)
	if !ok {
		return
	}
	switch n := v.(type) {
	case int:
		t.set(to, strconv.Itoa(n)+"Gi")
	default:
		t.set(to, fmt.Sprint(n)) // already a quantity
	}
}

func (t *translation) run() error {
	o := "opencenter"
	f := t.readFacts()
	for _, k := range []string{"name", "organization", "env", "region"} {
		t.copy(o+".meta."+k, o, "meta", k)
	}
	if !t.copy(o+".cluster.cluster_name", o, "cluster", "cluster_name") {
		return fmt.Errorf("opencenter.cluster.cluster_name: required: it names the output .<cluster>-config.yaml")
	}
	t.r.ClusterName = fmt.Sprint(t.out["opencenter"].(map[string]any)["cluster"].(map[string]any)["cluster_name"])
	t.copy(o+".cluster.cluster_fqdn", o, "cluster", "cluster_fqdn")
	t.baseDomain(f)
	if err := t.provider(); err != nil {
		return err
	}
	t.gitops()
	t.services(f)
	t.secrets()
	t.certManager(f)
	t.renamedUnits()
	t.r.Dropped = t.dropDefaults(f.fqdn)
	t.derive(f)
	return nil
}

// baseDomain makes the cluster's FQDN ours base_domain: openCenter-cli
// publishes every service under cluster_fqdn and names only its
// self-signed CA after its own base_domain, while ours is the zone of the
// hostnames and of the Gateway's default listeners.
func (t *translation) baseDomain(f facts) {
	theirs, _ := t.take("opencenter", "cluster", "base_domain")
	if f.fqdn == "" {
		if theirs != nil && theirs != "" {
			t.set("opencenter.cluster.base_domain", theirs)
		}
		return
	}
	t.set("opencenter.cluster.base_domain", f.fqdn)
	why := "the zone of the service hostnames; openCenter-cli publishes them under cluster_fqdn"
	if theirs != nil && theirs != "" && theirs != f.fqdn {
		why += fmt.Sprintf(" and named only its self-signed CA after its base_domain (%v)", theirs)
	}
	t.r.Derived = append(t.r.Derived, Item{Path: "opencenter.cluster.base_domain", Value: f.fqdn, Why: why})
}

// renamedFlux are the Flux Kustomizations openCenter-cli renders under a
// name opencenter does not, by service (FIELDMAP.md section 9), with what
// they apply: pruned with prune on, they delete it.
var renamedFlux = map[string][]struct{ name, applies string }{
	"gateway-api":   {{"envoy-gateway-api-base", "the Envoy Gateway HelmRelease, and with it the Gateway of every published service"}, {"envoy-gateway-api-override", "its values Secret"}},
	"kafka-cluster": {{"strimzi-kafka-operator-base", "the Strimzi operator HelmRelease"}},
	"weave-gitops":  {{"weave-gitops-base", "the Weave GitOps HelmRelease"}, {"weave-gitops-override", "its values"}},
	"olm":           {{"olm-override", "nothing that builds"}},
}

// renamedUnits lists, to decide, the Flux Kustomizations of the enabled
// services that the first render would leave behind for Flux to prune.
func (t *translation) renamedUnits() {
	for svc, units := range renamedFlux {
		if !t.enabled(svc) {
			continue
		}
		for _, u := range units {
			t.r.Decide = append(t.r.Decide, fmt.Sprintf("Flux Kustomization %s (%s): opencenter renders none of that name; set suspend: true in its file, commit and let Flux apply it before render --adopt, or Flux deletes what it applied", u.name, u.applies))
		}
	}
}

// provider maps infrastructure.provider: vsphere is vmware; the clouds
// openCenter-cli refuses too are refused.
func (t *translation) provider() error {
	v, ok := t.take("opencenter", "infrastructure", "provider")
	if !ok {
		return nil
	}
	p := fmt.Sprint(v)
	switch p {
	case "openstack", "vmware", "baremetal", "kind":
	case "vsphere":
		p = "vmware"
	default:
		return fmt.Errorf("opencenter.infrastructure.provider: %s: expected openstack, vmware, vsphere, baremetal or kind", p)
	}
	t.set("opencenter.infrastructure.provider", p)
	return nil
}

// initRepos are the repository URLs openCenter-cli's init writes as
// placeholders.
var initRepos = map[string]bool{
	"https://github.com/opencenter/cluster-config.git":    true,
	"ssh://git@example.com/opencenter/cluster-config.git": true,
}

func (t *translation) gitops() {
	g := []string{"opencenter", "gitops"}
	if u, ok := t.take(append(g, "repository", "url")...); ok && !initRepos[fmt.Sprint(u)] {
		t.set("opencenter.gitops.repository.url", u)
	} else {
		t.r.Decide = append(t.r.Decide, "opencenter.gitops.repository.url: the cluster's GitOps repository (openCenter-cli's config has none, or init's placeholder)")
	}
	t.copy("opencenter.gitops.repository.branch", append(g, "repository", "branch")...)
	for _, k := range []string{"url", "release", "branch"} {
		t.copy("opencenter.gitops.base_repo."+k, append(g, "base_repo", k)...)
	}
	t.copy("opencenter.gitops.flux.interval", append(g, "flux", "interval")...)
	if t.copy("opencenter.gitops.flux.prune", append(g, "flux", "prune")...) {
		if v, _ := t.get("opencenter.gitops.flux.prune"); v == false {
			t.r.Decide = append(t.r.Decide, "opencenter.gitops.flux.prune: false, which openCenter-cli ignored (it rendered prune: true on every unit); opencenter honours it, so Flux will leave behind what leaves git")
		}
	}
	if auth, _ := t.peek(append(g, "auth", "ssh")...); auth != nil {
		if u, _ := t.get("opencenter.gitops.base_repo.url"); u != nil {
			if rest, ok := strings.CutPrefix(fmt.Sprint(u), "https://"); ok {
				v := "ssh://git@" + rest
				t.set("opencenter.gitops.base_repo.url", v)
				t.r.Derived = append(t.r.Derived, Item{Path: "opencenter.gitops.base_repo.url", Value: v, Why: "the base repository over SSH, as openCenter-cli's sources reach it with gitops.auth.ssh"})
			}
		}
	}
	if t.has("opencenter.gitops.base_repo.url") && !t.copy("opencenter.gitops.base_repo.secret_name", append(g, "base_repo", "secret_name")...) {
		t.set("opencenter.gitops.base_repo.secret_name", "opencenter-base")
		t.r.Derived = append(t.r.Derived, Item{Path: "opencenter.gitops.base_repo.secret_name", Value: "opencenter-base", Why: "the Secret every base GitRepository of openCenter-cli names"})
	}
	u := append(g, "overlay_units")
	for _, k := range []string{"enabled", "repository_name", "repository_url", "branch", "secret_name", "emit_secret", "kustomizations", "interval"} {
		t.copy("opencenter.gitops.overlay_units.customer_managed."+k, append(u, "customer_managed", k)...)
	}
	if t.has("opencenter.gitops.overlay_units.customer_managed.enabled") && !t.has("opencenter.gitops.overlay_units.customer_managed.interval") {
		t.set("opencenter.gitops.overlay_units.customer_managed.interval", "5m")
		t.r.Derived = append(t.r.Derived, Item{Path: "opencenter.gitops.overlay_units.customer_managed.interval", Value: "5m", Why: "the customer-managed units' interval"})
	}
	for _, k := range []string{"enabled", "rules"} {
		t.copy("opencenter.gitops.overlay_units.sops."+k, append(u, "sops", k)...)
	}
}

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
	if v, ok := t.take("opencenter", "services", "tempo", "storage_type"); ok && t.enabled("tempo") {
		if v == "swift" {
			t.r.Decide = append(t.r.Decide, "opencenter.services.tempo.storage: swift, which opencenter's Tempo does not take: use s3 with Swift's S3 API as endpoint (https://swift.api.<region>.rackspacecloud.com) and S3 keys")
		} else {
			t.set("opencenter.services.tempo.storage", v)
		}
	}
	if t.enabled("velero") {
		t.r.Decide = append(t.r.Decide, "opencenter.services.velero.provider: openCenter-cli's Velero ran the OpenStack plugin (Swift, Secret cloud-credentials); opencenter's runs the AWS plugin against an S3 API, such as Swift's at s3_url https://swift.api.<region>.rackspacecloud.com, with S3 keys (secrets or existing_secret); backups the OpenStack plugin made are not readable by it")
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

// enabled reports whether the output enables service svc.
func (t *translation) enabled(svc string) bool {
	s, _ := t.out["opencenter"].(map[string]any)["services"].(map[string]any)
	m, _ := s[svc].(map[string]any)
	on, _ := m["enabled"].(bool)
	return on
}

// peek returns the value at path in the input, leaving it there.
func (t *translation) peek(path ...string) (any, bool) {
	return lookup(t.in, path...)
}

// lookup returns the value at path in the mappings under root.
func lookup(root map[string]any, path ...string) (any, bool) {
	var v any = root
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
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

// report lists every leaf left under m, at prefix.
func (t *translation) report(prefix string, m map[string]any) {
	for k, v := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		switch v := v.(type) {
		case map[string]any:
			t.report(p, v)
		default:
			val := fmt.Sprint(v)
			if strings.HasPrefix(p, "secrets.") || strings.Contains(p, "password") || strings.Contains(p, "token") {
				val = "(secret)"
			} else if _, ok := v.([]any); ok {
				var n yaml.Node
				if n.Encode(v) == nil {
					n.Style = yaml.FlowStyle
				}
				b, _ := yaml.Marshal(&n)
				val = strings.TrimSpace(string(b))
			}
			if strings.Contains(val, "\n") {
				val = strconv.Quote(val) // one line per key
			}
			t.r.Report = append(t.r.Report, Item{Path: p, Value: val})
		}
	}
}
