package fluxorder

import (
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// fluxUnit is a Flux unit of its own unit, applying objs.
func fluxUnit(name string, spec catalog.FluxUnit, objs ...Object) *FluxUnit {
	spec.Name = name
	return &FluxUnit{Unit: &catalog.Unit{Name: name}, Spec: &spec, Path: "./" + name, Applies: objs}
}

func crd(group string) Object {
	return Object{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition", Name: "things." + group, CRDGroup: group, File: "crds.yaml", InPlan: true}
}

func thing(group, name string) Object {
	return Object{Group: group, Kind: "Thing", Name: name, Namespace: "ns", File: "things.yaml", InPlan: true}
}

func messages(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Unit.Name+": "+p.Msg)
	}
	return strings.Join(out, "\n")
}

// TestCustomResourcesFollowTheirCRDs: a unit applying a custom resource
// follows the unit installing its CRD, unless its dependsOn chain already
// reaches it; one without a provider is reported, once per group.
func TestCustomResourcesFollowTheirCRDs(t *testing.T) {
	op := fluxUnit("operator", catalog.FluxUnit{}, crd("example.io"))
	direct := fluxUnit("direct", catalog.FluxUnit{}, thing("example.io", "a"), thing("example.io", "b"))
	mid := fluxUnit("mid", catalog.FluxUnit{DependsOn: []string{"operator"}})
	chained := fluxUnit("chained", catalog.FluxUnit{DependsOn: []string{"mid"}}, thing("example.io", "c"))
	orphan := fluxUnit("orphan", catalog.FluxUnit{}, thing("other.io", "d"), thing("other.io", "e"))
	core := fluxUnit("core", catalog.FluxUnit{}, Object{Kind: "ConfigMap", Name: "f", Namespace: "ns"})
	problems := Order([]*FluxUnit{op, direct, mid, chained, orphan, core}, "applications/overlays/c", nil)

	if !slices.Equal(direct.After, []string{"operator"}) {
		t.Errorf("direct follows %v, want [operator]", direct.After)
	}
	if len(chained.After) != 0 || len(core.After) != 0 || len(op.After) != 0 {
		t.Errorf("chained follows %v, core %v, operator %v: want nothing more", chained.After, core.After, op.After)
	}
	want := "orphan: orphan applies Thing d (applications/overlays/c/things.yaml, API group other.io), whose CRD no active unit installs: enable the service that provides it"
	if got := messages(problems); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
}

// TestChartNeedsAndWants: a chart that creates custom resources (Needs)
// follows their provider and is an error without one; a chart that only
// uses them when they exist (Wants) follows a provider if there is one.
func TestChartNeedsAndWants(t *testing.T) {
	op := fluxUnit("operator", catalog.FluxUnit{Provides: []string{"example.io"}})
	needs := fluxUnit("needs", catalog.FluxUnit{Needs: []string{"example.io"}})
	wants := fluxUnit("wants", catalog.FluxUnit{Wants: []string{"example.io", "absent.io"}})
	missing := fluxUnit("missing", catalog.FluxUnit{Needs: []string{"absent.io"}})
	problems := Order([]*FluxUnit{op, needs, wants, missing}, "o", nil)
	if !slices.Equal(needs.After, []string{"operator"}) || !slices.Equal(wants.After, []string{"operator"}) {
		t.Errorf("needs follows %v, wants %v: want [operator] each", needs.After, wants.After)
	}
	if len(problems) != 1 || problems[0].Unit.Name != "missing" || !strings.Contains(problems[0].Msg, "API group absent.io") {
		t.Errorf("problems:\n%s", messages(problems))
	}
}

// TestPresentGroups: a CRD group the cluster has without a Flux unit (a
// service installed outside opencenter) is no problem and orders nothing,
// and a Flux unit that does install it is still followed.
func TestPresentGroups(t *testing.T) {
	user := fluxUnit("user", catalog.FluxUnit{Needs: []string{"outside.io"}}, Object{Group: "outside.io", Kind: "Thing", Name: "t", File: "t.yaml", InPlan: true})
	op := fluxUnit("operator", catalog.FluxUnit{Provides: []string{"example.io"}})
	both := fluxUnit("both", catalog.FluxUnit{Needs: []string{"example.io"}})
	present := map[string]bool{"outside.io": true, "example.io": true}
	if problems := Order([]*FluxUnit{user, op, both}, "o", present); len(problems) > 0 {
		t.Fatalf("problems:\n%s", messages(problems))
	}
	if len(user.After) != 0 || !slices.Equal(both.After, []string{"operator"}) {
		t.Errorf("user follows %v, both %v: want [] and [operator]", user.After, both.After)
	}
	if problems := Order([]*FluxUnit{user}, "o", nil); len(problems) != 1 {
		t.Errorf("without present, want the one problem of group outside.io, got:\n%s", messages(problems))
	}
}

// TestOneOwnerPerObject: an object two units apply is reported, naming
// both and where each gets it; CRDs may be applied by several.
func TestOneOwnerPerObject(t *testing.T) {
	a := fluxUnit("a", catalog.FluxUnit{}, Object{Kind: "ConfigMap", Name: "x", Namespace: "ns", File: "a.yaml", InPlan: true}, crd("example.io"))
	b := fluxUnit("b", catalog.FluxUnit{}, Object{Kind: "ConfigMap", Name: "x", Namespace: "ns", File: "base/b"}, crd("example.io"))
	c := fluxUnit("c", catalog.FluxUnit{}, Object{Kind: "ConfigMap", Name: "x", Namespace: "other", File: "c.yaml", InPlan: true})
	problems := Order([]*FluxUnit{a, b, c}, "o", nil)
	want := "b: ConfigMap ns/x is applied by both a (o/a.yaml) and b (base/b): an object has one owner"
	if got := messages(problems); !strings.Contains(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("problems:\n%s\nwant one owner problem:\n%s\nand the two units installing one CRD group", got, want)
	}
}

// TestSharedBaseObjects: a base object a unit's directory lists from
// another directory goes to the unit building that directory, which the
// borrower then follows; a unit of Spec.Only takes its kinds of a path and
// leaves the rest to the unit applying the whole path.
func TestSharedBaseObjects(t *testing.T) {
	chart := &catalog.BaseObject{Kind: "HelmRepository", Name: "charts", Home: "sources"}
	home := &catalog.BaseObject{Kind: "HelmRepository", Name: "charts"}
	key := Object{Group: "source.toolkit.fluxcd.io", Kind: "HelmRepository", Name: "charts", Namespace: "flux-system"}
	borrowed, owned := key, key
	borrowed.File, borrowed.Base = "apps/x", chart
	owned.File, owned.Base = "sources", home
	sources := fluxUnit("sources", catalog.FluxUnit{})
	sources.Path = "./sources"
	sources.Applies = []Object{owned}
	app := fluxUnit("app", catalog.FluxUnit{}, borrowed)

	ns := Object{Kind: "Namespace", Name: "x", File: "apps/y", Base: &catalog.BaseObject{Kind: "Namespace", Name: "x"}}
	cm := Object{Kind: "ConfigMap", Name: "y", Namespace: "x", File: "apps/y", Base: &catalog.BaseObject{Kind: "ConfigMap", Name: "y"}}
	nsOnly := fluxUnit("ns-only", catalog.FluxUnit{Only: []string{"Namespace"}, Source: "base"}, ns, cm)
	rest := fluxUnit("rest", catalog.FluxUnit{Source: "base", DependsOn: []string{"ns-only"}}, ns, cm)
	nsOnly.Path, rest.Path = "./apps/y", "./apps/y"

	if problems := Order([]*FluxUnit{sources, app, nsOnly, rest}, "o", nil); len(problems) > 0 {
		t.Fatalf("problems:\n%s", messages(problems))
	}
	if len(app.Applies) != 0 || len(app.Shared) != 1 || app.Shared[0].Owner != "sources" || !slices.Equal(app.After, []string{"sources"}) {
		t.Errorf("app applies %v, shares %v, follows %v: want the chart left to sources, and to follow it", app.Applies, app.Shared, app.After)
	}
	if len(nsOnly.Applies) != 1 || nsOnly.Applies[0].Kind != "Namespace" || len(nsOnly.Shared) != 1 || nsOnly.Shared[0].Owner != "" {
		t.Errorf("ns-only applies %v, shares %v: want the Namespace, the rest left", nsOnly.Applies, nsOnly.Shared)
	}
	if len(rest.Applies) != 1 || rest.Applies[0].Kind != "ConfigMap" || len(rest.Shared) != 1 || rest.Shared[0].Owner != "ns-only" {
		t.Errorf("rest applies %v, shares %v: want the ConfigMap, the Namespace left to ns-only", rest.Applies, rest.Shared)
	}
}
