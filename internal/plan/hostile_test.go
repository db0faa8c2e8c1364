package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
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
// rendered: each adds the strings under its paths to the corpus.
// TestHostileValuesReachEveryField and TestCorpusConfigsReachEveryMode
// say when one is missing.
var corpusVariants = []corpusVariant{
	{"swift", "../../testdata/fixture/.k8s-dev-config.yaml", servicePaths("harbor", "loki", "mimir"), map[string]string{
		"opencenter.services.harbor.storage":        "swift",
		"opencenter.services.harbor.endpoint":       "https://keystone.iad3.northwind.example:5000/v3",
		"opencenter.services.harbor.bucket":         "harbor-images",
		"opencenter.services.harbor.region":         "RegionOne",
		"opencenter.services.harbor.swift_username": "registry",
		"opencenter.services.harbor.swift_project":  "platform",
		"secrets.services.harbor.swift_password":    "example-swift-password",
		"opencenter.services.loki.storage":          "swift",
		"opencenter.services.loki.endpoint":         "https://keystone.iad3.northwind.example:5000/v3",
		"opencenter.services.loki.region":           "RegionOne",
		"opencenter.services.mimir.storage":         "swift",
		"opencenter.services.mimir.endpoint":        "https://keystone.iad3.northwind.example:5000/v3",
		"opencenter.services.mimir.region":          "RegionOne",
	}, nil, nil},
	{"aws", "../../testdata/fixture/.k8s-dev-config.yaml", servicePaths("harbor", "loki", "mimir", "tempo", "velero", "etcd-backup"), map[string]string{
		"opencenter.services.harbor.endpoint":      "",
		"opencenter.services.harbor.region":        "us-east-1",
		"opencenter.services.loki.endpoint":        "",
		"opencenter.services.loki.region":          "us-east-1",
		"opencenter.services.mimir.endpoint":       "",
		"opencenter.services.mimir.region":         "us-east-1",
		"opencenter.services.tempo.endpoint":       "",
		"opencenter.services.tempo.region":         "us-east-1",
		"opencenter.services.velero.s3_url":        "",
		"opencenter.services.velero.region":        "us-east-1",
		"opencenter.services.etcd-backup.endpoint": "",
		"opencenter.services.etcd-backup.region":   "us-east-1",
	}, nil, nil},
	sourceVariant("fork sources", false),
	sourceVariant("release sources", true),
	existingSecretsVariant(),
	{name: "base on a branch over ssh", config: dev, paths: []string{"opencenter.gitops.base_repo."},
		drop: []string{"opencenter.gitops.base_repo.release"},
		set: map[string]string{
			"opencenter.gitops.base_repo.branch":      "main",
			"opencenter.gitops.base_repo.url":         "ssh://git@github.com/opencenter-cloud/openCenter-gitops-base.git",
			"opencenter.gitops.base_repo.secret_name": "gitops-base-ssh",
		}},
	{name: "lists and defaults set", config: dev,
		paths: []string{
			"opencenter.gitops.overlay_units.customer_managed.kustomizations[0].depends_on",
			"opencenter.services.postgres-operator.watched_namespaces", "opencenter.services.rbac-manager.role_bindings[0].namespaces",
			"opencenter.services.istio.", "opencenter.managed_services.alert-proxy.alertmanager_url", "opencenter.managed_services.alert-proxy.links_domain",
			"opencenter.services.gateway.listeners[0].tls_secret_name",
		},
		// policies follows infrastructure instead of leading it
		drop: []string{"opencenter.gitops.overlay_units.customer_managed.kustomizations[1].depends_on"},
		set: map[string]string{
			"opencenter.gitops.overlay_units.customer_managed.kustomizations[0].depends_on[0]": "infrastructure",
			"opencenter.services.postgres-operator.watched_namespaces[0]":                      "keycloak",
			"opencenter.services.rbac-manager.role_bindings[0].namespaces[0]":                  "keycloak",
			"opencenter.managed_services.alert-proxy.alertmanager_url":                         "https://alertmanager.ops.northwind.example/api/v2/alerts",
			"opencenter.managed_services.alert-proxy.links_domain":                             "alerts.dev.northwind.example",
			"opencenter.services.gateway.listeners[0].protocol":                                "HTTPS",
			"opencenter.services.gateway.listeners[0].hostname":                                "*.apps.dev.northwind.example",
			"opencenter.services.gateway.listeners[0].tls_secret_name":                         "wildcard-apps-dev-northwind-example-tls",
			"opencenter.services.istio.profile":                                                "demo",
		},
		bools: map[string]bool{"opencenter.services.istio.enabled": true, "opencenter.services.istio.ingress_gateway": true}},
	// Modes no fixture config uses: storage on volumes (the default),
	// and switches the fixtures leave one way.
	{name: "volumes and other modes", config: dev, paths: []string{"opencenter.services.mimir.values_existing_secret"},
		drop: []string{
			"opencenter.services.harbor.bucket", "opencenter.services.harbor.region", "opencenter.services.harbor.endpoint",
			"secrets.services.harbor.access_key_id", "secrets.services.harbor.secret_access_key",
			"opencenter.services.loki.bucket", "opencenter.services.loki.region", "opencenter.services.loki.endpoint", "secrets.services.loki",
			"opencenter.services.mimir.bucket", "opencenter.services.mimir.region", "opencenter.services.mimir.endpoint", "secrets.services.mimir",
			"secrets.services.kube-prometheus-stack.alertmanager_htpasswd",
			"opencenter.services.headlamp.oidc_issuer_url", "opencenter.services.headlamp.oidc_client_id", "secrets.services.headlamp",
		},
		set: map[string]string{
			"opencenter.services.harbor.storage":                          "filesystem",
			"opencenter.services.loki.storage":                            "filesystem",
			"opencenter.services.mimir.storage":                           "filesystem",
			"opencenter.services.mimir.values_existing_secret":            "mimir-values-vault",
			"opencenter.services.kube-prometheus-stack.alertmanager_auth": "none",
			"opencenter.services.calico.encapsulation":                    "IPIP",
			// Keycloak behind a proxy of its own: its route stays on every listener.
			"opencenter.services.keycloak.frontend_url": "https://sso.northwind.example",
		},
		bools: map[string]bool{
			"opencenter.gitops.flux.prune":                                      false,
			"opencenter.services.harbor.trivy_enabled":                          false,
			"opencenter.services.harbor.internal_network_policy":                false,
			"opencenter.services.headlamp.oidc_enabled":                         false,
			"opencenter.services.keycloak.operator_manual_approval":             true,
			"opencenter.services.keycloak.realm_import":                         false,
			"opencenter.services.kyverno.default_ruleset":                       false,
			"opencenter.services.metallb.l2_advertisement":                      false,
			"opencenter.services.opentelemetry-kube-stack.collect_logs":         false,
			"opencenter.services.opentelemetry-kube-stack.collect_host_metrics": false,
		}},
	{name: "qa modes", config: qa, paths: []string{"secrets.services.mimir.minio_root_password"},
		drop: []string{"opencenter.services.cert-manager.acme_email", "opencenter.services.cert-manager.acme_server",
			"opencenter.services.cert-manager.dns_provider", "secrets.services.cert-manager",
			"opencenter.services.mimir.bucket", "opencenter.services.mimir.region", "opencenter.services.mimir.endpoint", "secrets.services.mimir"},
		set: map[string]string{
			"opencenter.services.mimir.storage":                          "filesystem",
			"secrets.services.mimir.minio_root_password":                 "mQaModes.MinIO-root+pw=",
			"opencenter.services.calico.encapsulation":                   "IPIPCrossSubnet",
			"opencenter.services.cert-manager.issuer":                    "selfsigned",
			"opencenter.services.opentelemetry-kube-stack.otlp_endpoint": "http://otel-gateway.northwind.example:4318",
			"opencenter.services.longhorn.ui_auth":                       "none",
			"opencenter.services.longhorn.hostname":                      "longhorn.qa.northwind.example",
		},
		bools: map[string]bool{
			"opencenter.gitops.overlay_units.sops.enabled":               false,
			"opencenter.services.longhorn.default_storage_class":         true,
			"opencenter.services.opentelemetry-kube-stack.otlp_insecure": true,
		}},
	// The Longhorn UI published, behind the Gateway's basic authentication.
	{name: "longhorn UI", config: qa, paths: servicePaths("longhorn"),
		set: map[string]string{
			"opencenter.services.longhorn.hostname": "longhorn.qa.northwind.example",
			"secrets.services.longhorn.ui_htpasswd": "storage:{SHA}qsOclHmsXaQz7MgmT5nlcpWAiq4=",
		}},
	{name: "longhorn UI logins in a Secret", config: qa, paths: []string{"opencenter.services.longhorn.ui_htpasswd_existing_secret"},
		set: map[string]string{
			"opencenter.services.longhorn.hostname":                    "longhorn.qa.northwind.example",
			"opencenter.services.longhorn.ui_htpasswd_existing_secret": "longhorn-logins",
		}},
	providerVariant("baremetal", "None"),
	providerVariant("kind", "VXLANCrossSubnet"),
	{name: "ca issuer, gateway certificate from a Secret", config: dev,
		paths: []string{"opencenter.services.cert-manager.ca_secret_name", "opencenter.services.gateway.tls_secret_name"},
		drop: []string{"opencenter.services.cert-manager.acme_email", "opencenter.services.cert-manager.dns_provider",
			"opencenter.services.cert-manager.designate_auth_url", "opencenter.services.cert-manager.designate_region",
			"secrets.services.cert-manager", "opencenter.services.gateway.listeners"},
		set: map[string]string{
			"opencenter.services.cert-manager.issuer":         "ca",
			"opencenter.services.cert-manager.issuer_name":    "letsencrypt",
			"opencenter.services.cert-manager.ca_secret_name": "platform-ca",
			"opencenter.services.gateway.tls_secret_name":     "wildcard-dev-northwind-example-tls",
		}},
	// No cluster Gateway nor Gateway API: no route is rendered, Harbor,
	// which nothing publishes then, terminates TLS itself with its own
	// Certificate, and cert-manager runs without Gateway API support.
	{name: "without the cluster Gateway", config: dev, paths: []string{"opencenter.services.harbor.issuer"},
		set: map[string]string{"opencenter.services.harbor.issuer": "letsencrypt"},
		bools: map[string]bool{
			"opencenter.services.gateway.enabled":         false,
			"opencenter.services.gateway-api.enabled":     false,
			"opencenter.services.keycloak.gateway_route":  false,
			"opencenter.services.harbor.emit_certificate": true,
		}},
	// Every service in each adoption mode but managed, the default;
	// external in two halves, so that both render a base path and a
	// custom resource after its CRDs (cert-manager's ClusterIssuer).
	adoptionVariant(config.AdoptionExternal, func(svc string) bool { return svc != "cert-manager" }),
	adoptionVariant(config.AdoptionExternal, func(svc string) bool { return svc == "cert-manager" }),
	adoptionVariant(config.AdoptionSync, nil),
	adoptionVariant(config.AdoptionDeferred, nil),
	adoptionVariant(config.AdoptionTakeover, nil),
	// No cert-manager, nor what needs it (the cluster Gateway, Keycloak):
	// the OpenTelemetry operator's webhook certificate comes from Helm.
	{name: "without cert-manager", config: dev,
		bools: map[string]bool{
			"opencenter.services.cert-manager.enabled": false,
			"opencenter.services.gateway.enabled":      false,
			"opencenter.services.keycloak.enabled":     false,
		}},
}

// providerVariant is the dev config on another provider: without the
// OpenStack services, with calico's encapsulation, and without a
// ClusterIssuer.
func providerVariant(provider, encapsulation string) corpusVariant {
	return corpusVariant{name: provider + " provider", config: dev,
		drop: []string{"opencenter.services.openstack-ccm", "opencenter.services.openstack-csi",
			"secrets.services.openstack-ccm", "secrets.services.openstack-csi",
			"opencenter.services.cert-manager.acme_email", "opencenter.services.cert-manager.dns_provider",
			"opencenter.services.cert-manager.designate_auth_url", "opencenter.services.cert-manager.designate_region",
			"secrets.services.cert-manager"},
		set: map[string]string{
			"opencenter.infrastructure.provider":       provider,
			"opencenter.services.calico.encapsulation": encapsulation,
			"opencenter.services.cert-manager.issuer":  "none",
		}}
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

// existingSecretsVariant names an existing Secret for every service that
// takes one, instead of its secrets: the field is every string field
// ending in existing_secret.
func existingSecretsVariant() corpusVariant {
	v := corpusVariant{name: "existing Secrets", config: dev, set: map[string]string{}}
	dropped := map[string]bool{}
	for _, fl := range generated.Fields {
		// dev's Mimir keeps its blocks in S3, so its MinIO is off, and with
		// it the values Secret of MinIO's root password.
		// dev has no Longhorn: the "longhorn UI" variants cover it on qa.
		if fl.Kind != catalog.KindString || !strings.HasSuffix(fl.Path, "existing_secret") || fl.Path == "opencenter.services.mimir.values_existing_secret" ||
			strings.HasPrefix(fl.Path, "opencenter.services.longhorn.") {
			continue
		}
		svc := fl.Path[:strings.LastIndex(fl.Path, ".")]
		v.paths = append(v.paths, fl.Path)
		v.set[fl.Path] = strings.ReplaceAll(path.Base(strings.ReplaceAll(fl.Path, ".", "/")), "_", "-")
		if sec := "secrets." + strings.TrimPrefix(svc, "opencenter."); !dropped[sec] {
			dropped[sec] = true
			v.drop = append(v.drop, sec)
		}
	}
	// What a Secret holds is not given beside it, and weave-gitops's chart
	// fixes the Secret's name.
	v.drop = append(v.drop, "opencenter.services.headlamp.oidc_issuer_url",
		"opencenter.services.openstack-ccm.auth_url", "opencenter.services.openstack-ccm.region",
		"opencenter.services.openstack-csi.auth_url", "opencenter.services.openstack-csi.region",
		"opencenter.services.vsphere-csi.vcenter_host", "opencenter.services.vsphere-csi.datacenter")
	v.set["opencenter.services.weave-gitops.admin_existing_secret"] = "cluster-user-auth"
	return v
}

// servicePaths are the path prefixes of services' settings and secrets.
func servicePaths(services ...string) []string {
	var out []string
	for _, svc := range services {
		out = append(out, "opencenter.services."+svc+".", "secrets.services."+svc+".")
	}
	return out
}

// corpusVariant is a fixture config with some values set.
type corpusVariant struct {
	name, config string
	paths        []string          // the prefixes of the paths whose strings the corpus tries
	set          map[string]string // field path -> string value
	drop         []string          // field paths removed first
	bools        map[string]bool   // bool field path -> value
}

// dev is the fixture config most variants start from; qa has Longhorn.
const (
	dev = "../../testdata/fixture/.k8s-dev-config.yaml"
	qa  = "../../testdata/fixture/.k8s-qa-config.yaml"
)

// forkURL is a fork of the base that services' sources follow in a variant.
const forkURL = "https://github.com/northwind/gitops-base-fork.git"

// sourceVariant gives every service that takes a source override one: a
// branch of a fork, or with release a release of the base (alert-proxy,
// which the base has on main only, a release of the fork). Services the
// config does not enable are switched on.
func sourceVariant(name string, release bool) corpusVariant {
	v := corpusVariant{name: name, config: dev, set: map[string]string{}, bools: map[string]bool{}}
	for _, fl := range generated.Fields {
		at, ok := strings.CutSuffix(fl.Path, ".source.repo")
		if !ok {
			continue
		}
		v.paths = append(v.paths, at+".source.")
		v.bools[at+".enabled"] = true
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
			if fl.Get == nil || fl.Kind != catalog.KindBool && len(fl.Enum) == 0 {
				continue
			}
			if v, ok := fl.Get(f.Config); ok {
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
		case fl.Get == nil:
			continue
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

// helmTemplated are the values, by the unit whose helm values set them,
// that the base's charts (at the versions release 2026.01 pins) pass
// through Helm's tpl: Helm runs {{ ... }} there at install. A '*' stands
// for any key.
var helmTemplated = map[string][]string{
	// kube-prometheus-stack 77.6.0, templates/prometheus/prometheus.yaml:
	// tpl (toYaml .Values.prometheus.prometheusSpec.remoteWrite | indent 4) .
	"kube-prometheus-stack": {"prometheus.prometheusSpec.remoteWrite"},
	// opentelemetry-kube-stack 0.11.1, templates/_config.tpl:
	// tpl (toYaml $collector.config) . for each collector.
	"opentelemetry-kube-stack": {"collectors.*.config"},
	// loki 6.45.2, templates/_helpers.tpl: tpl (mergeOverwrite (tpl
	// .Values.loki.config . | fromYaml) ...) ., a second pass over the
	// config, whose template writes the storage values in.
	"loki": {"loki.storage"},
	// kyverno 3.6.0, templates/config/_helpers.tpl: tpl of each resource
	// filter, [*/*,<namespace>,*] for each of these.
	"kyverno": {"config.resourceFiltersIncludeNamespaces"},
	// mimir-distributed 6.0.3, templates/_helpers.tpl: tpl (mergeOverwrite
	// ... .Values.mimir.structuredConfig | toYaml) .
	"mimir": {"mimir.structuredConfig"},
	// tempo-distributed 1.55.0, templates/_helpers.tpl: the same second
	// pass, over a config whose template writes toYaml .Values.storage.trace.s3.
	"tempo": {"storage.trace"},
}

// chartUnquoted are the values, by unit, that the base's charts write
// into a YAML file as given, unquoted; "path if key=value" holds only when
// the value at key is value.
var chartUnquoted = map[string][]string{
	// harbor 1.17.2, templates/registry/registry-cm.yaml.
	"harbor": {
		"persistence.imageChartStorage.s3.bucket", "persistence.imageChartStorage.s3.region", "persistence.imageChartStorage.s3.regionendpoint",
		"persistence.imageChartStorage.swift.authurl", "persistence.imageChartStorage.swift.username", "persistence.imageChartStorage.swift.container",
		"persistence.imageChartStorage.swift.region", "persistence.imageChartStorage.swift.tenant", "persistence.imageChartStorage.swift.domain",
	},
	// weave-gitops 4.0.36, templates/admin-user.yaml (a subject's name,
	// and in two role bindings' names).
	"weave-gitops": {"adminUser.username"},
	// loki 6.45.2, templates/_helpers.tpl (loki.lokiStorageConfig.s3, and
	// the Swift container_name from bucketNames.chunks).
	"loki": {"loki.storage.s3.region", "loki.storage.s3.endpoint", "loki.storage.bucketNames.chunks if loki.storage.type=swift"},
}

// collectorConfigs are the values, by unit, that become an OpenTelemetry
// Collector's config, in which the Collector (confmap, v0.129) expands
// ${NAME} and ${env:NAME} from its environment and reads $$ as $.
var collectorConfigs = map[string][]string{
	"opentelemetry-kube-stack": {"collectors.*.config"},
}

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
		if why := inValues(p, data, helmTemplated, helmAction, "the chart passes it through Helm's tpl, which runs it at install"); why != "" {
			return why
		}
		if why := unquotedChanged(p, data); why != "" {
			return why
		}
		if why := inValues(p, data, collectorConfigs, expandEnvsubst, "the OpenTelemetry Collector expands it in its config"); why != "" {
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

// inValues says where the helm values file p, of a unit in units, holds
// mark in a value under one of the unit's prefixes, or returns "".
func inValues(p string, data []byte, units map[string][]string, mark, why string) string {
	if !bytes.Contains(data, []byte(mark)) {
		return ""
	}
	prefixes, values, err := chartValues(p, data, units)
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

// chartValues returns the paths units lists for the unit of the file p,
// when p holds the values of the unit's chart (a helm-values file, or a
// HelmRelease's spec.values), and those values.
func chartValues(p string, data []byte, units map[string][]string) ([]string, any, error) {
	dir, _, values := strings.Cut(p, "/helm-values/")
	release := strings.HasSuffix(p, "/helmrelease.yaml")
	if release {
		dir = filepath.Dir(p)
	}
	paths := units[filepath.Base(dir)]
	if len(paths) == 0 || !values && !release {
		return nil, nil, nil
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, nil, err
	}
	if release {
		spec := valuesAt(v, []string{"spec", "values"})
		if len(spec) != 1 {
			return nil, nil, nil
		}
		return paths, spec[0], nil
	}
	return paths, v, nil
}

// unquotedChanged says where the helm values file p sets a value that its
// chart writes unquoted (chartUnquoted) and that a YAML 1.1 reader
// (yaml.v2: Helm's fromYaml, the registry's config) reads back as
// something else, or returns "".
func unquotedChanged(p string, data []byte) string {
	paths, values, err := chartValues(p, data, chartUnquoted)
	if err != nil {
		return p + ": " + err.Error()
	}
	for _, path := range paths {
		path, cond, _ := strings.Cut(path, " if ")
		if key, want, ok := strings.Cut(cond, "="); ok && !slices.ContainsFunc(valuesAt(values, strings.Split(key, ".")), func(v any) bool { return v == want }) {
			continue
		}
		for _, v := range valuesAt(values, strings.Split(path, ".")) {
			s, ok := v.(string)
			if !ok {
				continue
			}
			var got map[string]any
			if err := yamlv2.Unmarshal([]byte("k: "+s+"\n"), &got); err != nil || got["k"] != s {
				return fmt.Sprintf("%s: %s is %.60q, which its chart writes unquoted, and a YAML 1.1 reader reads as %#v (%v)", p, path, s, got["k"], err)
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
			} else if fl.Get != nil {
				if v, ok := fl.Get(f.Config); ok {
					orig = fmt.Sprint(v)
				}
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
		"a release's values": {"services/weave-gitops/helmrelease.yaml": []byte("spec:\n  values:\n    adminUser:\n      username: \"a #b\"\n")},
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
