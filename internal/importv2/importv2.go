package importv2

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
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
