package emit_test

import (
	"bytes"
	"go/format"
	"strings"
	"sync"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/sebdah/goldie/v2"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/emit"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/gen/templates"
	"github.com/opencenter-dev/opencenter/internal/baseindex"
)

// loadModel loads the project's config model once.
var loadModel = sync.OnceValues(func() (*model.Model, error) { return model.Load("../..") })

// smallModel is the project's config model cut down to the fields at
// paths, each with what lies below it, and the objects on the way: a
// small model with the real Go types, so that the emitted code reads
// like zz_generated's.
func smallModel(t *testing.T, paths ...string) *model.Model {
	t.Helper()
	full, err := loadModel()
	if err != nil {
		t.Fatalf("loading the config model: %v", err)
	}
	m := *full
	root := *full.Root
	root.Children = nil
	m.Root = &root
	for _, p := range paths {
		chain, _, bad := full.Lookup(p)
		if bad >= 0 {
			t.Fatalf("the config has no %s", p)
		}
		parent := m.Root
		for i, n := range chain {
			c := parent.Child(n.JSON)
			if c == nil {
				if i == len(chain)-1 {
					c = clone(n, parent)
				} else {
					cp := *n
					cp.Parent, cp.Children = parent, nil
					c = &cp
				}
				parent.Children = append(parent.Children, c)
			}
			parent = c
		}
	}
	return &m
}

func clone(n, parent *model.Node) *model.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Parent = parent
	c.Children = nil
	for _, ch := range n.Children {
		c.Children = append(c.Children, clone(ch, &c))
	}
	c.Elem = clone(n.Elem, &c)
	return &c
}

// smallCatalog is the small catalog the emitters write: a model with a
// service, its secrets, a map and a list of objects with required_when,
// format and enumeration fields, and two units, one of them a standard
// service with conditions through a pointer, a map key and a bool, a
// Validate method, a source override and an existing Secret.
func smallCatalog(t *testing.T) *check.Catalog {
	t.Helper()
	m := smallModel(t,
		"opencenter.meta.labels",
		"opencenter.services.gateway.enabled",
		"opencenter.services.gateway.listeners",
		"opencenter.services.keycloak.enabled",
		"opencenter.services.keycloak.namespace",
		"opencenter.services.keycloak.hostname",
		"opencenter.services.keycloak.instances",
		"opencenter.services.keycloak.max_replicas",
		"opencenter.services.keycloak.gateway_route",
		"opencenter.services.keycloak.admin_existing_secret",
		"secrets.services.keycloak",
		"opencenter.services.loki.enabled",
		"opencenter.services.loki.storage",
		"opencenter.services.loki.existing_secret",
		"secrets.services.loki.access_key_id",
	)
	node := func(p string) *model.Node {
		chain, _, bad := m.Lookup(p)
		if bad >= 0 {
			t.Fatalf("the small model has no %s", p)
		}
		return chain[len(chain)-1]
	}
	cond := func(field string, op descriptor.Operator, value, text string) *check.Cond {
		chain, keys, _ := m.Lookup(field)
		return &check.Cond{Text: text, Chain: chain, Keys: keys, Op: op, Value: value}
	}
	cluster := &check.Unit{
		D: &descriptor.Loaded{File: "descriptors/cluster.yaml"}, Name: "cluster", Layer: "cluster",
		FluxUnits: []check.FluxUnit{{FluxUnit: descriptor.FluxUnit{Name: "sources", Source: "flux-system", Path: "{overlay}/services/sources"}}},
		Files:     []check.File{{Out: "kustomization.yaml", Builtin: "root"}},
	}
	keycloak := &check.Unit{
		D: &descriptor.Loaded{File: "descriptors/keycloak.yaml"}, Name: "keycloak", Layer: "services",
		Description: "Keycloak, the standard pattern.",
		ServiceKey:  "keycloak", ServiceNode: node("opencenter.services.keycloak"), SecretsNode: node("secrets.services.keycloak"),
		Namespace: "keycloak",
		Gate:      []*check.Cond{cond("opencenter.services.keycloak.enabled", "true", "", "opencenter.services.keycloak.enabled is true")},
		Sources:   []descriptor.Source{{Name: "opencenter-keycloak", Repo: "base"}},
		FluxUnits: []check.FluxUnit{
			{
				FluxUnit: descriptor.FluxUnit{
					Name: "keycloak-base", Source: "opencenter-keycloak", Path: "applications/base/services/keycloak",
					TargetNamespace: "{namespace}", DependsOn: []string{"sources", "keycloak-override"}, Wait: true,
					HealthChecks: []descriptor.HealthCheck{{APIVersion: "helm.toolkit.fluxcd.io/v2", Kind: "HelmRelease", Name: "keycloak", Namespace: "{namespace}"}},
					Provides:     []string{"k8s.keycloak.org"},
				},
				ValuesFrom: []check.ValuesFrom{{Secret: "keycloak-db", When: cond("opencenter.meta.labels.team", "equals", "platform", `opencenter.meta.labels.team equals "platform"`)}},
			},
			{FluxUnit: descriptor.FluxUnit{Name: "keycloak-override", Source: "flux-system", Path: "{overlay}/services/keycloak", TargetNamespace: "{namespace}", DependsOn: []string{"sources"}}},
		},
		Root: "services/keycloak",
		Files: []check.File{
			{Out: "helm-values/override-values.yaml", Template: "keycloak/helm-values/override-values.yaml"},
			{Out: "hpa.yaml", Template: "keycloak/hpa.yaml", When: cond("opencenter.services.keycloak.max_replicas", "exists", "", "opencenter.services.keycloak.max_replicas is set")},
			{Out: "kustomization.yaml", Builtin: "standard"},
		},
		HelmRelease: "keycloak", ValuesSecret: "keycloak-values-override",
		Releases:  []string{"v1.0.0"},
		Validates: true, Sourced: true,
		ExistingSecrets: []*model.Node{node("opencenter.services.keycloak.admin_existing_secret")},
	}
	reqs, err := check.Requirements(m, "../..")
	if err != nil {
		t.Fatalf("the small model's required_when tags:\n%v", err)
	}
	return check.NewCatalog(m, []*check.Unit{cluster, keycloak}, reqs)
}

// outputs emits every file of the small catalog, by golden name.
func outputs(t *testing.T) map[string][]byte {
	t.Helper()
	cat := smallCatalog(t)
	base, err := baseindex.Load("testdata/base-index.json")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"catalog.md": emit.Catalog(cat.Units, []*baseindex.Index{base})}
	for name, fn := range map[string]func() ([]byte, error){
		"units.go":    func() ([]byte, error) { return emit.Units(cat.Units) },
		"fields.go":   func() ([]byte, error) { return emit.Fields(cat) },
		"check.go":    func() ([]byte, error) { return emit.Check(cat) },
		"defaults.go": func() ([]byte, error) { return emit.Defaults(cat) },
		"schema.json": func() ([]byte, error) { return emit.Schema(cat) },
		"base.go":     func() ([]byte, error) { return emit.Base([]*baseindex.Index{base}) },
		"register.go": emit.Register,
	} {
		b, err := fn()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b
	}
	return out
}

// TestGolden compares what each emitter writes for the small catalog with
// testdata/TestGolden/<file>.golden (refresh with go test ./gen/... -update).
func TestGolden(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/TestGolden"), goldie.WithNameSuffix(".golden"))
	for name, b := range outputs(t) {
		t.Run(name, func(t *testing.T) { g.Assert(t, name, b) })
	}
}

// TestShape checks what every emitted file owes verify-generated and
// review tools: the same bytes on every run (maps are sorted, whatever
// their iteration order), and Go files gofmt'd, with exactly one
// generated header, first.
func TestShape(t *testing.T) {
	first := outputs(t)
	for range 3 {
		for name, b := range outputs(t) {
			if !bytes.Equal(b, first[name]) {
				t.Errorf("%s: two runs differ: output is not deterministic", name)
			}
		}
	}
	for name, b := range first {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		if !strings.HasPrefix(string(b), emit.Header+"\n") {
			t.Errorf("%s: does not start with the generated header", name)
		}
		if n := strings.Count(string(b), "Code generated"); n != 1 {
			t.Errorf("%s: %d generated headers, want 1", name, n)
		}
		if f, err := format.Source(b); err != nil {
			t.Errorf("%s: not valid Go: %v", name, err)
		} else if !bytes.Equal(f, b) {
			t.Errorf("%s: not gofmt'd", name)
		}
	}
}

// TestTemplatesSorted: templates.go holds every compiled template of
// every unit once, sorted by function name, whatever the units' order.
func TestTemplatesSorted(t *testing.T) {
	file := func(fn string) check.File {
		return check.File{Compiled: &templates.Output{Func: fn, Code: jen.Func().Id(fn).Params().Block()}}
	}
	units := []*check.Unit{
		{Files: []check.File{file("renderB"), {Builtin: "standard"}}},
		{Files: []check.File{file("renderC"), file("renderA")}},
	}
	b, err := emit.Templates(units)
	if err != nil {
		t.Fatal(err)
	}
	a, bb, c := bytes.Index(b, []byte("func renderA")), bytes.Index(b, []byte("func renderB")), bytes.Index(b, []byte("func renderC"))
	if a < 0 || bb < 0 || c < 0 || !(a < bb && bb < c) {
		t.Errorf("templates.go does not hold renderA, renderB, renderC in that order:\n%s", b)
	}
}

// TestBaseChartTwice: a base release that installs one chart at two
// versions is an error of the Base emitter, not a table.
func TestBaseChartTwice(t *testing.T) {
	hr := func(version string) []baseindex.HelmRelease {
		return []baseindex.HelmRelease{{Name: "keycloak", Chart: "keycloak", Version: version}}
	}
	x := &baseindex.Index{Ref: "v1.0.0", Dirs: []baseindex.Dir{
		{Path: "applications/base/services/a", HelmReleases: hr("24.0.1")},
		{Path: "applications/base/services/b", HelmReleases: hr("25.0.0")},
	}}
	b, err := emit.Base([]*baseindex.Index{x})
	if want := "installs chart keycloak at two versions, 24.0.1 and 25.0.0"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Base = %d bytes, error %v; want an error with %q", len(b), err, want)
	}
}
