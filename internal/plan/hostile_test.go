package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/config/configtest"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// hostile are the values of TestHostileValues. The injections follow the
// field's own value, so that a check of a prefix or of a format does not
// stop them all before they reach a template. Each is compared with a
// harmless twin that changes the value the same way without the hostile
// part: the field's value with "harmless" after it for an injection, the
// word "harmless" for a value that replaces the field's, the field's own
// value for the long one.
var hostile = []struct {
	name string
	of   func(orig string) string
	twin twin
}{
	{"newline and key", func(o string) string { return o + "\ninjected: x" }, twinSuffix},
	{"document", func(o string) string { return o + "\n---\nkind: ClusterRoleBinding" }, twinSuffix},
	{"---", func(string) string { return "---" }, twinWord},
	{`": "`, func(o string) string { return o + ": x" }, twinSuffix},
	{`" #"`, func(o string) string { return o + " #x" }, twinSuffix},
	{"U+2028", func(o string) string { return o + "\u2028injected: x" }, twinSuffix},
	{"U+2029", func(o string) string { return o + "\u2029injected: x" }, twinSuffix},
	{"U+0085", func(o string) string { return o + "\u0085injected: x" }, twinSuffix},
	{"CR", func(o string) string { return o + "\rinjected: x" }, twinSuffix},
	{"NUL", func(o string) string { return o + "\x00" }, twinSuffix},
	{"true", func(string) string { return "true" }, twinWord},
	{"null", func(string) string { return "null" }, twinWord},
	{"*anchor", func(string) string { return "*anchor" }, twinWord},
	{"0b+1", func(string) string { return "0b+1" }, twinWord}, // a number to yaml.v3, by a quirk of its resolver
	// References that a consumer expands after the YAML is read.
	{"$(VAR)", func(o string) string { return o + expandK8s }, twinSuffix},
	{"${VAR}", func(o string) string { return o + expandEnvsubst }, twinSuffix},
	{"{{ }}", func(o string) string { return o + helmAction }, twinSuffix},
	{"100 kB", func(o string) string { return o + strings.Repeat("a", 100<<10) }, twinOwn},
}

// corpusVariants are fixture configs with fields and modes no fixture
// uses set, so that the corpus reaches the values only they write (Swift,
// AWS S3 without endpoint, sources, named Secrets...) and every mode is
// rendered: each adds the strings under its paths to the corpus. They are
// the units' examples (examples: in each descriptor) and a few cluster-wide
// variants. TestHostileValuesReachEveryField and
// TestCorpusConfigsReachEveryMode say when one is missing.
var corpusVariants = slices.Concat([]corpusVariant{
	sourceVariant("fork sources", false),
	sourceVariant("release sources", true),
	{name: "base on a branch over ssh", config: dev, paths: []string{"opencenter.gitops.base_repo."},
		drop: []string{"opencenter.gitops.base_repo.release"},
		set: map[string]string{
			"opencenter.gitops.base_repo.branch":      "main",
			"opencenter.gitops.base_repo.url":         "ssh://git@github.com/opencenter-cloud/openCenter-gitops-base.git",
			"opencenter.gitops.base_repo.secret_name": "gitops-base-ssh",
		}},
	{name: "flux without pruning", config: dev, bools: map[string]bool{"opencenter.gitops.flux.prune": false}},
	// Every service in each adoption mode but managed, the default;
	// external in two halves, so that both render a base path and a
	// custom resource after its CRDs (cert-manager's ClusterIssuer).
	adoptionVariant(config.AdoptionExternal, func(svc string) bool { return svc != "cert-manager" }),
	adoptionVariant(config.AdoptionExternal, func(svc string) bool { return svc == "cert-manager" }),
	adoptionVariant(config.AdoptionSync, nil),
	adoptionVariant(config.AdoptionDeferred, nil),
	adoptionVariant(config.AdoptionTakeover, nil),
}, exampleVariants())

// exampleVariants are the examples of every unit of the catalog. Each
// tries the strings at the paths it sets, and all the strings of a
// service it switches on.
func exampleVariants() []corpusVariant {
	var out []corpusVariant
	for _, u := range generated.Units {
		for _, e := range u.Examples {
			v := corpusVariant{name: u.Name + ": " + e.Name, config: "../../testdata/fixture/.k8s-" + e.Config + "-config.yaml",
				set: e.Set, bools: e.Bools, drop: e.Drop}
			for _, p := range slices.Sorted(maps.Keys(e.Set)) {
				v.paths = append(v.paths, p)
			}
			for _, p := range slices.Sorted(maps.Keys(e.Bools)) {
				if svc, ok := strings.CutSuffix(p, ".enabled"); ok && e.Bools[p] {
					v.paths = append(v.paths, svc+".", "secrets."+strings.TrimPrefix(svc, "opencenter.")+".")
				}
			}
			out = append(out, v)
		}
	}
	return out
}

// adoptionVariant is the dev config with every service, enabled or not,
// for which which holds (all, when which is nil), in adoption mode m.
func adoptionVariant(m config.AdoptionMode, which func(svc string) bool) corpusVariant {
	v := corpusVariant{name: "adoption_mode " + string(m), config: dev, set: map[string]string{}}
	for _, fl := range generated.Fields {
		at, ok := strings.CutSuffix(fl.Path, ".adoption_mode")
		if ok && (which == nil || which(at[strings.LastIndex(at, ".")+1:])) {
			v.set[fl.Path] = string(m)
		}
	}
	if which != nil {
		v.name += fmt.Sprintf(" (%d services)", len(v.set))
	}
	return v
}

// corpusVariant is a fixture config with some values set.
type corpusVariant struct {
	name, config string
	paths        []string          // the prefixes of the paths whose strings the corpus tries
	set          map[string]string // field path -> string value
	drop         []string          // field paths removed first
	bools        map[string]bool   // bool field path -> value
}

// dev is the fixture config most variants start from.
const dev = "../../testdata/fixture/.k8s-dev-config.yaml"

// forkURL is a fork of the base that services' sources follow in a variant.
const forkURL = "https://github.com/northwind/gitops-base-fork.git"

// sourceVariant gives every service that takes a source override one: a
// branch of a fork, or with release a release of the base (alert-proxy,
// which the base has on main only, a release of the fork). Services the
// config does not enable are switched on, with the credentials the first
// example that switches them on gives (those they require; the example
// covers the rest of their modes).
func sourceVariant(name string, release bool) corpusVariant {
	v := corpusVariant{name: name, config: dev, set: map[string]string{}, bools: map[string]bool{}}
	for _, fl := range generated.Fields {
		at, ok := strings.CutSuffix(fl.Path, ".source.repo")
		if !ok {
			continue
		}
		v.paths = append(v.paths, at+".source.")
		v.bools[at+".enabled"] = true
		if e := enablingExample(at); e != nil {
			for k, x := range e.Set {
				if strings.HasPrefix(k, "secrets.") {
					v.set[k] = x
				}
			}
		}
		switch {
		case !release:
			v.set[at+".source.repo"], v.set[at+".source.branch"] = forkURL, "platform/next"
		case strings.HasPrefix(at, "opencenter.managed_services."):
			v.set[at+".source.repo"], v.set[at+".source.release"] = forkURL, "v0.1.0"
		default:
			v.set[at+".source.release"] = "2026.01"
		}
	}
	return v
}

// enablingExample is the first example of the catalog that switches on
// the service at path at, nil for none.
func enablingExample(at string) *catalog.Example {
	for i := range generated.Units {
		for j, e := range generated.Units[i].Examples {
			if e.Bools[at+".enabled"] {
				return &generated.Units[i].Examples[j]
			}
		}
	}
	return nil
}

// of returns the variant's config: its fixture with the values set.
func (v *corpusVariant) of(t *testing.T) *yaml.Node {
	t.Helper()
	doc := plaintextDoc(t, v.config)
	for _, p := range v.drop {
		steps, _ := stepsOf(p)
		if !remove(doc.Content[0], steps) {
			t.Fatalf("%s variant: %s has no %s to drop", v.name, v.config, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(v.bools)) {
		steps, _ := stepsOf(p)
		doc = set(doc, target{steps: steps}, strconv.FormatBool(v.bools[p]))
		lookup(doc.Content[0], steps).Tag, lookup(doc.Content[0], steps).Style = "!!bool", 0
	}
	for _, p := range slices.Sorted(maps.Keys(v.set)) {
		steps, _ := stepsOf(p)
		doc = set(doc, target{steps: steps}, v.set[p])
	}
	return doc
}

// twin is the harmless value a hostile one is compared with.
type twin int

const (
	twinOwn twin = iota
	twinSuffix
	twinWord
)

func (w twin) of(orig string) string {
	switch w {
	case twinSuffix:
		return orig + "harmless"
	case twinWord:
		return "harmless"
	}
	return orig
}

// target is one string of a fixture config the corpus replaces.
type target struct {
	config string   // fixture file
	path   string   // YAML path, list elements as [0]
	steps  []string // path through the YAML tree: keys, or "[0]"
	key    bool     // the map key at steps, not its value
	orig   string   // the value (or key) the fixture has, defaults applied
}

// result is a render of a config: its files by path, or the error.
type result struct {
	files map[string][]byte
	err   error
}

// prepared is a target with its config loaded once, through its YAML and
// the real loader, with a placeholder at the string, then written out as
// JSON around it; each case decodes that JSON with its value spliced in,
// and runs the loader's checks (defaults, validation) and Build. Parsing the
// YAML again for each of ten thousand cases would take most of the corpus's
// time.
type prepared struct {
	target
	file          *config.File
	before, after []byte
	once          [3]sync.Once
	twins         [3]result
}

// placeholder marks the string in a prepared config.
const placeholder = "opencenter-hostile-placeholder"

func prepare(doc *yaml.Node, tg target) (*prepared, error) {
	data, err := yaml.Marshal(set(doc, tg, placeholder))
	if err != nil {
		return nil, err
	}
	f, err := config.Decode(tg.config, data, config.LoadOptions{})
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(f.Config)
	if err != nil {
		return nil, err
	}
	q := []byte(`"` + placeholder + `"`)
	if bytes.Count(js, q) != 1 {
		return nil, fmt.Errorf("%s: the decoded config does not hold the placeholder once", tg.path)
	}
	i := bytes.Index(js, q)
	return &prepared{target: tg, file: f, before: js[:i], after: js[i+len(q):]}, nil
}

// render checks and builds the config with value in place of the target's
// string, with sops off, so that secret files compare in plaintext.
func (p *prepared) render(value string) result {
	q, err := json.Marshal(value)
	if err != nil {
		return result{err: err}
	}
	f := *p.file
	f.Config = &config.Config{}
	if err := json.Unmarshal(slices.Concat(p.before, q, p.after), f.Config); err != nil {
		return result{err: err}
	}
	if err := f.Check(); err != nil {
		return result{err: err}
	}
	f.Config.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false
	plan, err := Build(&f, Options{AllowPlaintextSecrets: true})
	if err != nil {
		return result{err: err}
	}
	files := make(map[string][]byte, len(plan.Files))
	for _, fl := range plan.Files {
		files[fl.Path] = fl.Data
	}
	return result{files: files}
}

func (p *prepared) twin(w twin) result {
	p.once[w].Do(func() { p.twins[w] = p.render(w.of(p.orig)) })
	return p.twins[w]
}

// hundredKB lists the fields the 100 kB value goes into: one per context
// (YAML values, keys and comments, a kustomize patch, gcfg, INI, Flux
// objects, labels), which keeps the corpus fast.
var hundredKB = []string{
	"opencenter.services.etcd-backup.bucket",
	"opencenter.services.keycloak.hostname",
	"opencenter.services.kafka-cluster.cluster_name",
	"opencenter.services.openstack-ccm.auth_url",
	"secrets.services.velero.access_key_id",
	"opencenter.gitops.repository.branch",
	"opencenter.meta.labels",
	"opencenter.managed_services.alert-proxy.account_id",
	"opencenter.services.kyverno.excluded_namespaces[0]",
	"secrets.overlay_units.customer_managed.known_hosts",
}

// corpusConfig is a config of the corpus and the strings it tries there.
type corpusConfig struct {
	name    string
	doc     *yaml.Node
	targets []target
}

// corpusTargets returns the configs of the corpus, the fixture's and the
// variants', with the strings each one tries: every string of a fixture
// config, and of a variant those at the paths it is for.
func corpusTargets(t *testing.T) []corpusConfig {
	t.Helper()
	var out []corpusConfig
	for _, name := range fixtureConfigs(t) {
		doc := plaintextDoc(t, name)
		out = append(out, corpusConfig{name, doc, stringTargets(t, name, doc)})
	}
	for i := range corpusVariants {
		v := &corpusVariants[i]
		doc, name := v.of(t), v.config+" ("+v.name+" variant)"
		var tgs []target
		for _, tg := range stringTargets(t, name, doc) {
			if slices.ContainsFunc(v.paths, func(p string) bool { return strings.HasPrefix(tg.path, p) }) {
				tgs = append(tgs, tg)
			}
		}
		out = append(out, corpusConfig{name, doc, tgs})
	}
	return out
}

// corpusPlans plans every config of the corpus, the fixture's and the
// variants' (sops as each says, secret material allowed in plaintext): the
// configs that reach every field and mode, for the tests that hold plans to
// the tools, charts and controllers that read them. A plan's Config names
// its variant.
func corpusPlans(t *testing.T) []*Plan {
	t.Helper()
	var out []*Plan
	for _, cp := range corpusConfigPlans(t) {
		out = append(out, cp.plan)
	}
	return out
}

// corpusConfigPlans are corpusPlans with the configs they were built from.
func corpusConfigPlans(t *testing.T) []configPlan {
	t.Helper()
	var out []configPlan
	for _, ct := range corpusTargets(t) {
		f := checkedDoc(t, ct.name, ct.doc)
		p, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatalf("planning %s:\n%v", ct.name, err)
		}
		out = append(out, configPlan{f, p})
	}
	return out
}

// configPlan is a plan and the config it was built from.
type configPlan struct {
	file *config.File
	plan *Plan
}

// TestHostileValuesReachEveryField: the corpus tries every string field,
// string list and string map of the config, through the fixture configs
// or a variant, so that a field added without a place in the corpus fails
// here rather than escaping it.
func TestHostileValuesReachEveryField(t *testing.T) {
	reached := map[string]bool{}
	for _, ct := range corpusTargets(t) {
		for _, tg := range ct.targets {
			p := strings.ReplaceAll(tg.path, "[0]", "[]")
			reached[p] = true
			if !tg.key { // a map's value: the map is reached by its key target
				reached[p[:max(0, strings.LastIndex(p, "."))]+".*"] = true
			}
		}
	}
	var missed []string
	for _, fl := range generated.Fields {
		var want string
		switch {
		case fl.Kind == catalog.KindString && !strings.Contains(fl.Path, ".*"):
			want = fl.Path
		case fl.Kind == catalog.KindList && fl.GoType == "[]string":
			want = fl.Path + "[]"
		case fl.Kind == catalog.KindMap && fl.GoType == "map[string]string":
			want = fl.Path
		default:
			continue
		}
		if !reached[want] {
			missed = append(missed, want)
		}
	}
	if len(missed) > 0 {
		t.Errorf("%d string fields no corpus config sets (give them a value in a corpusVariant):\n%s", len(missed), strings.Join(missed, "\n"))
	}
}

// TestCorpusConfigsReachEveryMode: every value of every enumeration, and
// both values of every switch, is rendered by a fixture config or a
// variant (which TestChartsReadEveryValue and the corpus render, and
// verify can check against the base). A mode no config renders is a mode
// nothing tests: Istio's default profile failed to install for as long as
// no config switched Istio on. The types offer no value the validation
// refuses whatever else the config says (tempo's swift and velero's azure
// and gcp were such values).
func TestCorpusConfigsReachEveryMode(t *testing.T) {
	seen := map[string]map[string]bool{}
	for _, ct := range corpusTargets(t) {
		f := checkedDoc(t, ct.name, ct.doc)
		for _, fl := range generated.Fields {
			if fl.Kind != catalog.KindBool && len(fl.Enum) == 0 {
				continue
			}
			if v, ok := configtest.Value(f.Config, fl.Path); ok {
				if seen[fl.Path] == nil {
					seen[fl.Path] = map[string]bool{}
				}
				seen[fl.Path][fmt.Sprint(v)] = true
			}
		}
	}
	var missed []string
	for _, fl := range generated.Fields {
		want := fl.Enum
		switch {
		case strings.Contains(fl.Path, "[]") || strings.Contains(fl.Path, ".*"):
			continue // the loop above reads no field of an element
		case fl.Kind == catalog.KindBool && strings.HasSuffix(fl.Path, ".enabled") && strings.Contains(fl.Path, "services."):
			want = []string{"true"} // a service switched off renders nothing of it
		case fl.Kind == catalog.KindBool:
			want = []string{"false", "true"}
		}
		for _, v := range want {
			if !seen[fl.Path][v] {
				missed = append(missed, fl.Path+" = "+v)
			}
		}
	}
	if len(missed) > 0 {
		t.Errorf("%d modes no corpus config renders (give them a corpusVariant):\n%s", len(missed), strings.Join(missed, "\n"))
	}
}

// TestHostileValues writes hostile values into every string field, string
// list item and map key and value of every fixture config (the config
// loaded through its YAML by the real loader, the value put in the decoded
// config before the loader's checks). Each case must be
// rejected by load or Build with a message naming the field's path (or the
// same message as its harmless twin, when the value breaks a reference to
// it), or render files whose parsed structure (documents, keys, value
// types, and the structure of YAML and INI held in block scalars) equals
// the harmless twin's, and whose objects the Kubernetes API server's
// validation accepts (apiProblems).
func TestHostileValues(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus renders ten thousand configs")
	}
	var targets []*prepared
	for _, ct := range corpusTargets(t) {
		for _, tg := range ct.targets {
			p, err := prepare(ct.doc, tg)
			if err != nil {
				t.Fatal(err)
			}
			targets = append(targets, p)
		}
	}
	type job struct {
		p *prepared
		h int
	}
	var jobs []job
	for _, p := range targets {
		for h := range hostile {
			if hostile[h].twin != twinOwn || slices.Contains(hundredKB, p.path) {
				jobs = append(jobs, job{p, h})
			}
		}
	}
	var (
		mu                 sync.Mutex
		rejected, rendered = map[string]int{}, map[string]int{}
		failures           []string
		next               = make(chan job)
		wg                 sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range next {
				h := hostile[j.h]
				value := h.of(j.p.orig)
				r := j.p.render(value)
				why := verdict(j.p, h.twin, value, r)
				mu.Lock()
				if r.err != nil {
					rejected[h.name]++
				} else {
					rendered[h.name]++
				}
				if why != "" {
					what := "value"
					if j.p.key {
						what = "key"
					}
					failures = append(failures, fmt.Sprintf("%s: %s (%s) = %s: %s", filepath.Base(j.p.config), j.p.path, what, h.name, why))
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	slices.Sort(failures)
	for _, f := range failures {
		t.Error(f)
	}
	var nr, nd int
	for _, h := range hostile {
		t.Logf("%-16s rejected %4d, rendered alike and valid %4d", h.name, rejected[h.name], rendered[h.name])
		nr, nd = nr+rejected[h.name], nd+rendered[h.name]
	}
	paths := map[string]bool{}
	for _, p := range targets {
		paths[p.path] = true
	}
	t.Logf("%d strings (%d paths) of %d fixture configs and %d variants, %d cases: rejected %d, rendered alike (same structure, valid to the API server and CRDs, not changed by a consumer) %d",
		len(targets), len(paths), len(fixtureConfigs(t)), len(corpusVariants), nr+nd, nr, nd)
	if len(targets) < 500 {
		t.Errorf("only %d strings in the fixture configs: the corpus lost its fields", len(targets))
	}
}

// verdict explains why a case's outcome is not acceptable, or returns "".
func verdict(p *prepared, w twin, value string, r result) string {
	harmless := w.of(p.orig)
	if r.err != nil {
		if strings.Contains(r.err.Error(), p.path) {
			return ""
		}
		// A changed name can break a reference to it, which its twin breaks too.
		tw := p.twin(w)
		if tw.err != nil && sameMessage(r.err.Error(), value, tw.err.Error(), harmless) {
			return ""
		}
		return fmt.Sprintf("rejected without naming %s: %.300s", p.path, r.err)
	}
	tw := p.twin(w)
	if tw.err != nil {
		return fmt.Sprintf("renders, but its harmless twin %.40q is rejected: %.300s", harmless, tw.err)
	}
	if why := sameTree(tw.files, r.files, harmless, value); why != "" {
		return why
	}
	if problems := apiProblems(r.files); len(problems) > 0 {
		return fmt.Sprintf("renders what the API server refuses: %.300s", strings.Join(problems, "; "))
	}
	return changedByConsumer(r.files)
}

// The variable references of the corpus: Kubernetes expands $(NAME) in a
// container's env values, command and args (with the container's other
// variables, a Secret's included), and Loki and Mimir expand ${NAME} in
// their whole config file when run with -config.expand-env (drone/envsubst).
// The name is one no template refers to. helmAction is a Go template
// action, which Helm runs where a chart passes a value through tpl.
const (
	expandK8s      = "$(OPENCENTER_INJECTED)"
	expandEnvsubst = "${OPENCENTER_INJECTED}"
	helmAction     = "{{.OPENCENTER_INJECTED}}"
)

// changedByConsumer says where a rendered file holds a value of the corpus
// that its consumer changes after the YAML is read, or returns "": a
// reference it expands, an action a chart runs through tpl, or a value a
// chart writes unquoted that reads back as something else.
func changedByConsumer(files map[string][]byte) string {
	for _, p := range slices.Sorted(maps.Keys(files)) {
		data := files[p]
		if bytes.Contains(data, []byte("-config.expand-env=true")) && bytes.Contains(data, []byte(expandEnvsubst)) {
			return p + ": a value holds " + expandEnvsubst + " in a config read with -config.expand-env"
		}
		var templated, expanded []string
		ch := chartsByValues[p]
		if ch != nil {
			templated, expanded = ch.Templated, ch.EnvExpanded
		}
		if why := inValues(p, data, templated, helmAction, "the chart passes it through Helm's tpl, which runs it at install"); why != "" {
			return why
		}
		if why := unquotedChanged(p, data, ch); why != "" {
			return why
		}
		if why := inValues(p, data, expanded, expandEnvsubst, "its consumer expands it in its config"); why != "" {
			return why
		}
		if !bytes.Contains(data, []byte(expandK8s)) {
			continue
		}
		docs, err := yamlDocs(data)
		if err != nil {
			return p + ": " + err.Error()
		}
		for _, d := range docs {
			var body any
			if d.Decode(&body) == nil && containerExpands(body, "") {
				return p + ": a container's env value, command or args holds " + expandK8s
			}
		}
	}
	return ""
}

// chartsByValues are the charts of the catalog by the overlay path of
// their values file.
var chartsByValues = func() map[string]*catalog.Chart {
	out := map[string]*catalog.Chart{}
	for i := range generated.Units {
		for j := range generated.Units[i].Charts {
			ch := &generated.Units[i].Charts[j]
			out[ch.Values] = ch
		}
	}
	return out
}()

// inValues says where the values file p holds mark in a value under one
// of prefixes, or returns "".
func inValues(p string, data []byte, prefixes []string, mark, why string) string {
	if len(prefixes) == 0 || !bytes.Contains(data, []byte(mark)) {
		return ""
	}
	values, err := valuesIn(data)
	if err != nil {
		return p + ": " + err.Error()
	}
	for _, prefix := range prefixes {
		for _, v := range valuesAt(values, strings.Split(prefix, ".")) {
			if b, _ := yaml.Marshal(v); bytes.Contains(b, []byte(mark)) {
				return fmt.Sprintf("%s: %s holds %s: %s", p, prefix, mark, why)
			}
		}
	}
	return ""
}

// valuesIn reads a chart's values: a values file, or a HelmRelease's spec.values.
func valuesIn(data []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok && m["kind"] == "HelmRelease" {
		spec := valuesAt(v, []string{"spec", "values"})
		if len(spec) != 1 {
			return nil, nil
		}
		return spec[0], nil
	}
	return v, nil
}

// unquotedChanged says where the values file p of chart ch sets a value
// that the chart writes unquoted (its unquoted) and that a YAML 1.1 reader
// (yaml.v2: Helm's fromYaml, the registry's config) reads back as
// something else, or returns "".
func unquotedChanged(p string, data []byte, ch *catalog.Chart) string {
	if ch == nil || len(ch.Unquoted) == 0 {
		return ""
	}
	values, err := valuesIn(data)
	if err != nil {
		return p + ": " + err.Error()
	}
	for _, u := range ch.Unquoted {
		if u.If != "" && !slices.ContainsFunc(valuesAt(values, strings.Split(u.If, ".")), func(v any) bool { return v == u.Equals }) {
			continue
		}
		for _, v := range valuesAt(values, strings.Split(u.Path, ".")) {
			s, ok := v.(string)
			if !ok {
				continue
			}
			var got map[string]any
			if err := yamlv2.Unmarshal([]byte("k: "+s+"\n"), &got); err != nil || got["k"] != s {
				return fmt.Sprintf("%s: %s is %.60q, which its chart writes unquoted, and a YAML 1.1 reader reads as %#v (%v)", p, u.Path, s, got["k"], err)
			}
		}
	}
	return ""
}

// valuesAt returns the values at the path of keys in v, '*' for any key.
func valuesAt(v any, keys []string) []any {
	if len(keys) == 0 {
		return []any{v}
	}
	m, _ := v.(map[string]any)
	var out []any
	for k, x := range m {
		if keys[0] == "*" || keys[0] == k {
			out = append(out, valuesAt(x, keys[1:])...)
		}
	}
	return out
}

// containerExpands reports whether v, under the key parent, holds expandK8s
// in an env value, command or args of a container.
func containerExpands(v any, parent string) bool {
	switch v := v.(type) {
	case map[string]any:
		if parent == "containers" || parent == "initContainers" {
			for _, k := range []string{"command", "args"} {
				list, _ := v[k].([]any)
				for _, x := range list {
					if s, _ := x.(string); strings.Contains(s, expandK8s) {
						return true
					}
				}
			}
			env, _ := v["env"].([]any)
			for _, e := range env {
				m, _ := e.(map[string]any)
				if s, _ := m["value"].(string); strings.Contains(s, expandK8s) {
					return true
				}
			}
		}
		for k, x := range v {
			if containerExpands(x, k) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if containerExpands(x, parent) {
				return true
			}
		}
	}
	return false
}

// sameMessage compares two errors with each one's value taken out.
func sameMessage(a, va, b, vb string) bool {
	out := func(s, v string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, strconv.Quote(v), "<value>"), v, "<value>")
	}
	return out(a, va) == out(b, vb)
}

// plaintextDoc reads a fixture config and decrypts its secrets in place, so
// that the corpus can replace them as written.
func plaintextDoc(t *testing.T, name string) *yaml.Node {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	ids, err := sops.LoadIdentities()
	if err != nil {
		t.Fatal(err)
	}
	if sops.IsEncrypted(data) {
		if _, err := sops.DecryptNode(&doc, ids); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return &doc
}

// stringTargets lists the strings of a config: every string field of the
// field index set in the file or by a default, the first item of every
// string list, the first key and value of every string map; list elements
// through their first item.
func stringTargets(t *testing.T, name string, doc *yaml.Node) []target {
	t.Helper()
	f := checkedDoc(t, name, doc)
	var out []target
	for _, fl := range generated.Fields {
		steps, path := stepsOf(fl.Path)
		switch {
		case fl.Kind == catalog.KindString && !strings.Contains(fl.Path, ".*"):
			orig := ""
			if n := lookup(doc.Content[0], steps); n != nil && n.Kind == yaml.ScalarNode {
				orig = n.Value
			} else if v, ok := configtest.Value(f.Config, fl.Path); ok {
				orig = fmt.Sprint(v)
			}
			if orig != "" {
				out = append(out, target{config: name, path: path, steps: steps, orig: orig})
			}
		case fl.Kind == catalog.KindList && fl.GoType == "[]string":
			steps = append(steps, "[0]")
			if n := lookup(doc.Content[0], steps); n != nil && n.Kind == yaml.ScalarNode && n.Value != "" {
				out = append(out, target{config: name, path: path + "[0]", steps: steps, orig: n.Value})
			}
		case fl.Kind == catalog.KindMap && fl.GoType == "map[string]string":
			m := lookup(doc.Content[0], steps)
			if m == nil || m.Kind != yaml.MappingNode || len(m.Content) == 0 {
				continue
			}
			k := m.Content[0].Value
			out = append(out,
				target{config: name, path: path + "." + k, steps: append(slices.Clone(steps), k), orig: m.Content[1].Value},
				target{config: name, path: path, steps: append(slices.Clone(steps), k), key: true, orig: k})
		}
	}
	return out
}

// checkedDoc loads a config document as the loader loads a file: decoded,
// its defaults applied, checked.
func checkedDoc(t *testing.T, name string, doc *yaml.Node) *config.File {
	t.Helper()
	data, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	f, err := config.Decode(name, data, config.LoadOptions{})
	if err == nil {
		err = f.Check()
	}
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// stepsOf splits a field index path into tree steps ("[]" becomes the
// first item) and the concrete path messages name.
func stepsOf(p string) ([]string, string) {
	var steps []string
	for _, seg := range strings.Split(p, ".") {
		if k, ok := strings.CutSuffix(seg, "[]"); ok {
			steps = append(steps, k, "[0]")
			continue
		}
		if k, i, ok := strings.Cut(seg, "["); ok && strings.HasSuffix(i, "]") {
			steps = append(steps, k, "["+i) // an element named by its index, as drop names one
			continue
		}
		steps = append(steps, seg)
	}
	return steps, strings.ReplaceAll(p, "[]", "[0]")
}

func lookup(n *yaml.Node, steps []string) *yaml.Node {
	for _, s := range steps {
		switch {
		case n == nil:
			return nil
		case strings.HasPrefix(s, "["):
			i, err := strconv.Atoi(strings.Trim(s, "[]"))
			if err != nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		case n.Kind == yaml.MappingNode:
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == s {
					next = n.Content[i+1]
				}
			}
			n = next
		default:
			return nil
		}
	}
	return n
}

// set writes value at the target in a copy of doc, creating mappings on the
// way for a field only a default sets.
func set(doc *yaml.Node, tg target, value string) *yaml.Node {
	root := clone(doc)
	n := root.Content[0]
	steps := tg.steps
	if tg.key {
		steps = steps[:len(steps)-1]
	}
	// fresh is the node a missing step i leads to: a scalar at the end, a
	// list before "[0]", else a mapping.
	fresh := func(i int) *yaml.Node {
		switch {
		case i == len(steps)-1:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
		case steps[i+1] == "[0]":
			return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		}
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	for i, s := range steps {
		if s == "[0]" {
			if len(n.Content) == 0 {
				n.Content = append(n.Content, fresh(i))
			}
			n = n.Content[0]
			continue
		}
		var next *yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == s {
				next = n.Content[j+1]
			}
		}
		if next == nil {
			next = fresh(i)
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}, next)
		}
		n = next
	}
	if tg.key {
		k := tg.steps[len(tg.steps)-1]
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == k {
				n = n.Content[j]
				break
			}
		}
	}
	n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", value, yaml.DoubleQuotedStyle
	n.Content, n.Alias = nil, nil
	return root
}

// remove deletes the mapping entry at steps from the tree at n.
func remove(n *yaml.Node, steps []string) bool {
	parent := lookup(n, steps[:len(steps)-1])
	if parent == nil || parent.Kind != yaml.MappingNode {
		return false
	}
	for j := 0; j+1 < len(parent.Content); j += 2 {
		if parent.Content[j].Value == steps[len(steps)-1] {
			parent.Content = slices.Delete(parent.Content, j, j+2)
			return true
		}
	}
	return false
}

func clone(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		c.Content[i] = clone(ch)
	}
	return &c
}

// sameTree compares two renders: the same files, each with the same
// structure, once the hostile value reads as the harmless one.
func sameTree(base, got map[string][]byte, harmless, value string) string {
	norm := func(s string) string { return strings.ReplaceAll(s, value, harmless) }
	named := make(map[string][]byte, len(got))
	for p, b := range got {
		named[norm(p)] = b
	}
	for p := range named {
		if _, ok := base[p]; !ok {
			return "renders a file its harmless twin does not: " + p
		}
	}
	for p, b := range base {
		g, ok := named[p]
		if !ok {
			return "does not render " + p
		}
		if bytes.Equal(b, g) {
			continue
		}
		if why := sameYAML(overlay.Body(b), overlay.Body(g), norm); why != "" {
			return p + ": " + why
		}
	}
	return ""
}

// sameYAML compares the documents of two YAML streams.
func sameYAML(a, b []byte, norm func(string) string) string {
	da, err := yamlDocs(a)
	if err != nil {
		return "the field's own value renders YAML that does not parse: " + err.Error()
	}
	db, err := yamlDocs(b)
	if err != nil {
		return "does not parse: " + err.Error()
	}
	if len(da) != len(db) {
		return fmt.Sprintf("%d documents instead of %d", len(db), len(da))
	}
	for i := range da {
		if why := sameNode(da[i], db[i], norm, fmt.Sprintf("document %d", i)); why != "" {
			return why
		}
	}
	return ""
}

func yamlDocs(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*yaml.Node
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return nil, err
		}
		out = append(out, &n)
	}
}

func sameNode(a, b *yaml.Node, norm func(string) string, at string) string {
	if a.Kind != b.Kind {
		return fmt.Sprintf("%s: a %s instead of a %s", at, kindName(b), kindName(a))
	}
	if a.Kind != yaml.ScalarNode && len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %d entries instead of %d", at, len(b.Content), len(a.Content))
	}
	switch a.Kind {
	case yaml.ScalarNode:
		if a.ShortTag() != b.ShortTag() {
			return fmt.Sprintf("%s: a %s instead of a %s", at, b.ShortTag(), a.ShortTag())
		}
		if a.ShortTag() == "!!str" && strings.Contains(a.Value, "\n") {
			return sameEmbedded(a.Value, b.Value, norm, at)
		}
	case yaml.MappingNode:
		// Keys may sort differently once the value is in one.
		byKey := map[string]*yaml.Node{}
		for i := 0; i+1 < len(b.Content); i += 2 {
			byKey[b.Content[i].ShortTag()+" "+norm(b.Content[i].Value)] = b.Content[i+1]
		}
		for i := 0; i+1 < len(a.Content); i += 2 {
			ka := a.Content[i]
			vb, ok := byKey[ka.ShortTag()+" "+ka.Value]
			if !ok {
				return fmt.Sprintf("%s: no key %.60q", at, ka.Value)
			}
			if why := sameNode(a.Content[i+1], vb, norm, at+"."+ka.Value); why != "" {
				return why
			}
		}
	default:
		for i := range a.Content {
			if why := sameNode(a.Content[i], b.Content[i], norm, fmt.Sprintf("%s[%d]", at, i)); why != "" {
				return why
			}
		}
	}
	return ""
}

func kindName(n *yaml.Node) string {
	return map[yaml.Kind]string{yaml.DocumentNode: "document", yaml.SequenceNode: "sequence", yaml.MappingNode: "mapping",
		yaml.ScalarNode: "scalar", yaml.AliasNode: "alias"}[n.Kind]
}

// sameEmbedded compares text a block scalar holds: INI (cloud.conf, AWS
// credentials) by its sections and keys, YAML (a kustomize patch) by its
// structure; other text (a key, a certificate) is one string either way.
func sameEmbedded(a, b string, norm func(string) string, at string) string {
	if strings.HasPrefix(strings.TrimSpace(a), "[") {
		la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
		if len(la) != len(lb) {
			return fmt.Sprintf("%s: %d INI lines instead of %d", at, len(lb), len(la))
		}
		for i := range la {
			if ka, kb := iniLine(la[i]), iniLine(norm(lb[i])); ka != kb {
				return fmt.Sprintf("%s: INI line %d is %.60q instead of %.60q", at, i+1, kb, ka)
			}
		}
		return ""
	}
	var na yaml.Node
	if yaml.Unmarshal([]byte(a), &na) != nil || len(na.Content) != 1 || na.Content[0].Kind != yaml.MappingNode {
		return ""
	}
	var nb yaml.Node
	if err := yaml.Unmarshal([]byte(b), &nb); err != nil {
		return at + ": the YAML it holds does not parse: " + err.Error()
	}
	return sameNode(&na, &nb, norm, at)
}

// iniLine is what an INI line declares: a section, a key, a comment.
func iniLine(l string) string {
	l = strings.TrimSpace(l)
	switch {
	case l == "":
		return ""
	case strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";"):
		return "comment"
	case strings.HasPrefix(l, "["):
		return l
	}
	if k, _, ok := strings.Cut(l, "="); ok {
		return "key " + strings.TrimSpace(k)
	}
	return "text"
}

// TestRefusedValueNamesItsField: a value its context cannot hold (a NUL in
// cloud.conf, which gcfg cannot escape) fails the render at the value's own
// line and path in the config, naming the file it was going to.
func TestRefusedValueNamesItsField(t *testing.T) {
	f := loadConfig(t, "../../testdata/fixture/.k8s-dev-config.yaml")
	ccm := *f.Config.OpenCenter.Services.OpenStackCCM
	ccm.AuthURL += "\x00"
	f.Config.OpenCenter.Services.OpenStackCCM = &ccm
	_, err := Build(f, Options{AllowPlaintextSecrets: true})
	want := regexp.MustCompile(`\.k8s-dev-config\.yaml:\d+:\d+: opencenter\.services\.openstack-ccm\.auth_url: a gcfg value cannot hold U\+0000 \(at byte \d+\), in openstack-ccm/cloud-config-secret\.yaml\.tpl \(unit openstack-ccm\)`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Fatalf("got %v, want a match of %s", err, want)
	}
}

// TestChangedByConsumer: changedByConsumer finds each corpus value where
// its consumer changes it, and only there.
func TestChangedByConsumer(t *testing.T) {
	job := "kind: CronJob\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n            - name: a\n              env:\n                - name: B\n                  value: x" + expandK8s + "\n"
	values := "global:\n  extraArgs:\n    - -config.expand-env=true\nbucket: x" + expandEnvsubst + "\n"
	remoteWrite := "prometheus:\n  prometheusSpec:\n    remoteWrite:\n      - url: https://x/" + helmAction + "\n"
	collector := "collectors:\n  daemon:\n    config:\n      exporters:\n        otlphttp:\n          endpoint: https://x/" + expandEnvsubst + "\n"
	harbor := func(region string) string {
		return "persistence:\n  imageChartStorage:\n    s3:\n      region: " + strconv.Quote(region) + "\n"
	}
	const kps, otel = "services/kube-prometheus-stack/helm-values/override-values.yaml", "services/opentelemetry-kube-stack/helm-values/override-values.yaml"
	for name, files := range map[string]map[string][]byte{
		"env value":          {"job.yaml": []byte(job)},
		"args":               {"job.yaml": []byte(strings.Replace(job, "env:\n                - name: B\n                  value: x", "args:\n                - x", 1))},
		"expand-env":         {"values.yaml": []byte(values)},
		"tpl":                {kps: []byte(remoteWrite)},
		"collector":          {otel: []byte(collector)},
		"unquoted":           {"services/harbor/helm-values/override-values.yaml": []byte(harbor("us-east-1 #x"))},
		"a boolean":          {"services/harbor/helm-values/override-values.yaml": []byte(harbor("yes"))},
		"a release's values": {"services/weave-gitops/helmrelease.yaml": []byte("kind: HelmRelease\nspec:\n  values:\n    adminUser:\n      username: \"a #b\"\n")},
	} {
		if changedByConsumer(files) == "" {
			t.Errorf("%s: no reference found", name)
		}
	}
	for name, files := range map[string]map[string][]byte{
		"a label":            {"cm.yaml": []byte("kind: ConfigMap\nmetadata:\n  labels:\n    a: x" + expandK8s + "\n")},
		"without expand-env": {"values.yaml": []byte(strings.Replace(values, "-config.expand-env=true", "-log.level=info", 1))},
		"a value not tpl'd":  {kps: []byte(strings.Replace(remoteWrite, "remoteWrite", "additionalRemoteWrite", 1))},
		"another unit":       {"services/loki/helm-values/override-values.yaml": []byte(remoteWrite)},
		"not a config":       {otel: []byte(strings.Replace(collector, "config", "resources", 1))},
		"a region":           {"services/harbor/helm-values/override-values.yaml": []byte(harbor("us-east-1"))},
		"loki s3 bucket":     {"services/loki/helm-values/override-values.yaml": []byte("loki:\n  storage:\n    type: s3\n    bucketNames:\n      chunks: \"yes\"\n")},
	} {
		if got := changedByConsumer(files); got != "" {
			t.Errorf("%s: %s", name, got)
		}
	}
}
