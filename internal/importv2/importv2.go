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
	// Decide lists what the user must still give or choose.
	Decide []string
}

// Item is one key of the input that opencenter does not model.
type Item struct {
	// Path is the key's dotted path in the input.
	Path string
	// Value is its value, "(secret)" under secrets:.
	Value string
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
	for _, k := range []string{"name", "organization", "env", "region"} {
		t.copy(o+".meta."+k, o, "meta", k)
	}
	if !t.copy(o+".cluster.cluster_name", o, "cluster", "cluster_name") {
		return fmt.Errorf("opencenter.cluster.cluster_name: required: it names the output .<cluster>-config.yaml")
	}
	t.r.ClusterName = fmt.Sprint(t.out["opencenter"].(map[string]any)["cluster"].(map[string]any)["cluster_name"])
	t.copy(o+".cluster.cluster_fqdn", o, "cluster", "cluster_fqdn")
	t.copy(o+".cluster.base_domain", o, "cluster", "base_domain")
	if err := t.provider(); err != nil {
		return err
	}
	t.gitops()
	t.services()
	t.secrets()
	t.renamedUnits()
	return nil
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
	t.copy("opencenter.gitops.flux.prune", append(g, "flux", "prune")...)
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

// renames are the typed fields each service keeps under another name (or
// the same), by openCenter-cli's name; sizes are in GB.
var renames = map[string]map[string]string{
	"cert-manager":          {"email": "acme_email", "letsencrypt_server": "acme_server"},
	"headlamp":              {"hostname": "hostname"},
	"keycloak":              {"hostname": "hostname", "client_id": "oidc_client_id", "instances": "instances", "max_replicas": "max_replicas", "backup_enabled": "backup_enabled", "backup_schedule": "backup_schedule"},
	"loki":                  {"storage_type": "storage", "bucket_name": "bucket", "s3_endpoint": "endpoint", "s3_region": "region", "storage_class": "storage_class"},
	"longhorn":              {"hostname": "hostname", "default_replica_count": "default_replica_count", "default_data_path": "data_path"},
	"velero":                {"backup_bucket": "bucket", "region": "region"},
	"harbor":                {"hostname": "hostname", "s3_bucket": "bucket", "emit_certificate": "emit_certificate"},
	"kube-prometheus-stack": {"hostname": "grafana_hostname"},
}

var sizes = map[string]map[string]string{
	"loki":                  {"volume_size": "storage_size"},
	"harbor":                {"registry_volume_size": "storage_size"},
	"kube-prometheus-stack": {"grafana_volume_size": "grafana_storage_size", "prometheus_volume_size": "prometheus_storage_size"},
}

func (t *translation) services() {
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
		to := "opencenter.services." + name + "."
		t.copy(to+"enabled", append(from, "enabled")...)
		if m, ok := t.take(append(from, "adoption_mode")...); ok && m != "managed" {
			t.set(to+"adoption_mode", m)
		}
		if v, ok := t.take(append(from, "override_values")...); ok {
			t.r.LocalValues[name] = fmt.Sprint(v)
		}
		for theirs, ours := range renames[name] {
			t.copy(to+ours, append(from, theirs)...)
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
	var v any = t.in
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
			} else if l, ok := v.([]any); ok {
				b, _ := yaml.Marshal(l)
				val = strings.TrimSpace(string(b))
			}
			t.r.Report = append(t.r.Report, Item{Path: p, Value: val})
		}
	}
}
