package check

import (
	"fmt"
	"go/types"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Chart is a checked chart record.
type Chart struct {
	descriptor.Chart
	// Values is the overlay path of its values file.
	Values string
	// Accepts are its accepts, each with its field resolved.
	Accepts []Accept
	// Schemas are its CRD schemas with kept files' paths from the module root.
	Schemas []descriptor.Schema
}

// Accept is a checked accepts entry.
type Accept struct {
	descriptor.Accept
	Field *Cond
}

// Login is a checked login: its hostname field, and the condition and
// method that gate it.
type Login struct {
	Hostname *Cond
	When     *Cond
	Method   string
}

// valuesPath is a path into a chart's values: keys, '*' for any.
var valuesPath = regexp.MustCompile(`^[A-Za-z0-9_*-]+([.][A-Za-z0-9_*/-]+)*$`)

// facts checks what the descriptor says of its charts, Services, logins
// and examples, and of the charts against every base release that holds
// their HelmRelease. A chart keeping CRDs in crds/ that nothing upgrades
// has Helm replace them: the standard unit's base Flux unit says so.
func (c *checker) facts() {
	used := map[string]bool{} // kept schema files referenced
	for _, u := range c.units {
		d := u.D
		for i, ch := range d.Charts {
			if k := c.chart(u, fmt.Sprintf("charts[%d]", i), ch, used); k != nil {
				u.Charts = append(u.Charts, *k)
			}
		}
		c.services(u)
		c.logins(u)
		c.examples(u)
	}
	for _, f := range c.in.Schemas {
		if !used[f] && !slices.Contains(c.in.Failed, strings.SplitN(f, "/", 2)[0]) {
			c.diags = append(c.diags, diag.Diag{File: c.in.Dir + "/schemas/" + f, Line: 1, Col: 1,
				Msg: "no chart's crds.schemas or values_schema names this file: name it in " + c.in.Dir + "/" + strings.SplitN(f, "/", 2)[0] + ".yaml, or delete it"})
		}
	}
}

func (c *checker) chart(u *Unit, at string, ch descriptor.Chart, used map[string]bool) *Chart {
	d := u.D
	k := &Chart{Chart: ch}
	ok := true
	req := func(v, key string) {
		if v == "" {
			c.errorf(d, at, "%s is required", key)
			ok = false
		}
	}
	req(ch.Chart, "chart")
	req(ch.Read, "read (where the facts were read: repository, tag, files)")
	if k.HelmRelease == "" {
		k.HelmRelease = u.HelmRelease
	}
	if k.Chart.Values == "" && u.HelmRelease != "" {
		k.Chart.Values = "helm-values/override-values.yaml"
	}
	switch {
	case k.HelmRelease == "":
		c.errorf(d, at, "helm_release is required outside the standard pattern: the HelmRelease installing %s", ch.Chart)
		ok = false
	case k.Chart.Values == "":
		c.errorf(d, at, "values is required outside the standard pattern: the unit's file holding the values %s reads", ch.Chart)
		ok = false
	case !slices.ContainsFunc(u.Files, func(f File) bool { return f.Out == k.Chart.Values }):
		var outs []string
		for _, f := range u.Files {
			outs = append(outs, f.Out)
		}
		c.errorf(d, at+".values", "values %s is not a file of unit %s%s", k.Chart.Values, u.Name, diag.Suggest(k.Chart.Values, outs))
		ok = false
	}
	k.Values = path.Join(u.Root, k.Chart.Values)
	for _, other := range u.Charts {
		if other.Values == k.Values {
			c.errorf(d, at+".values", "values %s holds the values of chart %s too: each chart reads a file of its own", k.Chart.Values, other.Chart.Chart)
			ok = false
		}
	}
	paths := func(key string, ps []string) {
		for j, p := range ps {
			if !valuesPath.MatchString(p) {
				c.errorf(d, fmt.Sprintf("%s.%s[%d]", at, key, j), "%q is not a values path: expected dotted keys such as grafana.admin.existingSecret", p)
				ok = false
			}
		}
	}
	paths("reads", ch.Reads)
	paths("templated", ch.Templated)
	paths("env_expanded", ch.EnvExpanded)
	for j, g := range ch.Gates {
		paths(fmt.Sprintf("gates[%d].under", j), []string{g.Under})
		paths(fmt.Sprintf("gates[%d].gate", j), []string{g.Gate})
	}
	for j, r := range ch.Required {
		paths(fmt.Sprintf("required[%d].path", j), []string{r.Path})
	}
	for j, q := range ch.Unquoted {
		paths(fmt.Sprintf("unquoted[%d].path", j), []string{q.Path})
		if (q.If == "") != (q.Equals == "") {
			c.errorf(d, fmt.Sprintf("%s.unquoted[%d]", at, j), "give if and equals together, or neither")
			ok = false
		}
	}
	for j, b := range ch.Budgets {
		bat := fmt.Sprintf("%s.budgets[%d]", at, j)
		if b.Workload == "" || b.Replicas == "" || b.Read == "" {
			c.errorf(d, bat, "workload, replicas and read are required")
			ok = false
		}
		if b.Autoscaling == "" && (b.AutoscalingBase || b.MinReplicas != 0) {
			c.errorf(d, bat, "autoscaling_base and min_replicas go with autoscaling")
			ok = false
		}
	}
	if cr := ch.CRDs; cr != nil {
		where := []string{descriptor.CRDsNone, descriptor.CRDsTemplates, descriptor.CRDsDir}
		switch {
		case !slices.Contains(where, cr.In):
			c.errorf(d, at+".crds.in", "crds.in %q: expected one of %s%s", cr.In, strings.Join(where, ", "), diag.Suggest(cr.In, where))
			ok = false
		case cr.In != descriptor.CRDsNone && cr.At == "":
			c.errorf(d, at+".crds.at", "crds.at is required: the chart's files that hold its CRDs")
			ok = false
		case cr.In != descriptor.CRDsDir && cr.UpgradedBy != "":
			c.errorf(d, at+".crds.upgraded_by", "upgraded_by is for CRDs in crds/, which Helm never upgrades: Helm upgrades those in templates with the release")
			ok = false
		}
		for j, s := range cr.Schemas {
			if ks, good := c.schema(u, fmt.Sprintf("%s.crds.schemas[%d]", at, j), s, used); good {
				k.Schemas = append(k.Schemas, ks)
			} else {
				ok = false
			}
		}
	}
	if s := ch.ValuesSchema; s != nil {
		if ks, good := c.schema(u, at+".values_schema", *s, used); good {
			k.ValuesSchema = &ks
		} else {
			ok = false
		}
	}
	for j, a := range ch.Accepts {
		aat := fmt.Sprintf("%s.accepts[%d]", at, j)
		f := c.cond(d, aat+".field", &descriptor.Condition{Field: a.Field, Operator: "exists"})
		switch {
		case f == nil:
			ok = false
		case f.Chain[len(f.Chain)-1].Kind != catalog.KindString:
			c.errorf(d, aat+".field", "field %s is %s: expected a string field", a.Field, article(f.Chain[len(f.Chain)-1].Kind))
			ok = false
		case len(a.Values) == 0 || a.What == "" || a.Read == "":
			c.errorf(d, aat, "values, what and read are required")
			ok = false
		default:
			k.Accepts = append(k.Accepts, Accept{Accept: a, Field: f})
		}
	}
	if !ok {
		return nil
	}
	c.chartInBase(u, at, k)
	if cr := k.CRDs; cr != nil && cr.In == descriptor.CRDsDir && cr.UpgradedBy == "" {
		i := slices.IndexFunc(u.FluxUnits, func(f FluxUnit) bool { return f.Name == u.Name+"-base" })
		if u.HelmRelease != k.HelmRelease || i < 0 {
			c.errorf(d, at+".crds", "chart %s keeps CRDs in crds/ that nothing upgrades, and only a standard unit's base HelmRelease gets Helm to replace them: give upgraded_by (the unit's own HelmRelease's CRD policy), or use the standard pattern", ch.Chart)
			return nil
		}
		u.FluxUnits[i].ReplaceCRDs = true
	}
	return k
}

// chartInBase checks the chart and version of a chart record against every
// base release holding its HelmRelease in a directory the unit applies. A
// HelmRelease in none of them is one of the unit's own files.
func (c *checker) chartInBase(u *Unit, at string, k *Chart) {
	if len(c.in.Base) == 0 {
		return
	}
	found := false
	for _, x := range c.in.Base {
		seen := map[string]bool{} // two Flux units may apply one base directory
		for _, f := range u.FluxUnits {
			if strings.Contains(f.Path, "{") || seen[f.Path] {
				continue
			}
			seen[f.Path] = true
			d, ok := x.Dir(f.Path)
			if !ok {
				continue
			}
			for _, h := range d.HelmReleases {
				if h.Name != k.HelmRelease {
					continue
				}
				found = true
				if h.Chart != k.Chart.Chart || h.Version != k.Version {
					c.errorf(u.D, at+".version", "chart %s %s: base release %s installs %s with HelmRelease %s (%s): read the chart at that version and update these facts",
						k.Chart.Chart, cmpOr(k.Version, "(no version)"), x.Ref, chartAt(h), h.Name, f.Path)
				}
			}
		}
	}
	if !found && path.Base(k.Chart.Values) != "helmrelease.yaml" {
		c.errorf(u.D, at+".helm_release", "HelmRelease %s is in no base directory unit %s applies (%s), and the unit's own HelmRelease would be its values file, helmrelease.yaml",
			k.HelmRelease, u.Name, refs(c.in.Base))
	}
}

func chartAt(h baseindex.HelmRelease) string {
	if h.Version == "" {
		return h.Chart
	}
	return h.Chart + " " + h.Version
}

// schema checks a schema file: a Go module's, or one kept under
// descriptors/schemas/<unit>/.
func (c *checker) schema(u *Unit, at string, s descriptor.Schema, used map[string]bool) (descriptor.Schema, bool) {
	switch {
	case s.File == "" || badRel(s.File) != "":
		c.errorf(u.D, at+".file", "file %q: expected a relative path", s.File)
		return s, false
	case s.Module != "":
		if s.Version == "" {
			c.errorf(u.D, at+".version", "version is required with module: the module's version that holds the file")
			return s, false
		}
		return s, true
	case s.Version != "":
		c.errorf(u.D, at+".version", "version goes with module: a kept file is at %s/schemas/%s/%s", c.in.Dir, u.Name, s.File)
		return s, false
	}
	rel := u.Name + "/" + s.File
	if !slices.Contains(c.in.Schemas, rel) {
		c.errorf(u.D, at+".file", "no file %s/schemas/%s: a schema without a module is kept under %s/schemas/<unit>/", c.in.Dir, rel, c.in.Dir)
		return s, false
	}
	used[rel] = true
	s.File = c.in.Dir + "/schemas/" + rel
	return s, true
}

// services checks the Services the unit's charts or operators make.
func (c *checker) services(u *Unit) {
	for i, s := range u.D.Services {
		at := fmt.Sprintf("services[%d]", i)
		switch {
		case (s.Chart == "") == (s.Kind == ""):
			c.errorf(u.D, at, "give chart (a chart of the unit's charts makes the Service) or kind (an operator makes it for each object of the kind), not both or neither")
		case s.Chart != "" && !slices.ContainsFunc(u.Charts, func(k Chart) bool { return k.Chart.Chart == s.Chart }):
			var names []string
			for _, k := range u.Charts {
				names = append(names, k.Chart.Chart)
			}
			c.errorf(u.D, at+".chart", "chart %s is not one of the unit's charts%s", s.Chart, diag.Suggest(s.Chart, names))
		case s.Chart != "" && (s.Fullname == "") == (s.Fixed == ""):
			c.errorf(u.D, at, "give fullname (the chart's fullname helper names the Service after the release) or fixed (a name whatever the release)")
		case s.Kind != "" && (s.Fullname != "" || s.Fixed != ""):
			c.errorf(u.D, at, "an operator's Service is named after its custom resource: give suffix, not fullname or fixed")
		case s.Port < 1 || s.Port > 65535:
			c.errorf(u.D, at+".port", "port %d: expected 1 to 65535", s.Port)
		case s.Read == "":
			c.errorf(u.D, at, "read is required: where the maker names the Service")
		}
	}
}

// logins checks the hostnames of the unit's login pages.
func (c *checker) logins(u *Unit) {
	d := u.D
	for i, l := range d.Logins {
		at := fmt.Sprintf("logins[%d]", i)
		if u.ServiceNode == nil {
			c.errorf(d, at, "logins belong to a service's unit (service or managed_service)")
			return
		}
		h := c.cond(d, at+".hostname", &descriptor.Condition{Field: l.Hostname, Operator: "exists"})
		if h == nil {
			continue
		}
		if leaf := h.Chain[len(h.Chain)-1]; leaf.Kind != catalog.KindString || leaf.Ptr || slices.ContainsFunc(h.Chain, func(n *model.Node) bool { return n.Kind == catalog.KindList }) {
			c.errorf(d, at+".hostname", "field %s is %s: expected a string field outside lists", l.Hostname, article(leaf.Kind))
			continue
		}
		k := Login{Hostname: h, Method: l.WhenMethod}
		if l.When != nil {
			if k.When = c.cond(d, at+".when", l.When); k.When == nil {
				continue
			}
		}
		if l.WhenMethod != "" && !boolMethod(c.in.Model, u.ServiceNode.Type, l.WhenMethod) {
			c.errorf(d, at+".when_method", "%s has no method %s() bool", c.in.Model.GoTypeString(u.ServiceNode.Type), l.WhenMethod)
			continue
		}
		u.Logins = append(u.Logins, k)
	}
}

// boolMethod reports whether t (or *t) has the method name, func() bool.
func boolMethod(m *model.Model, t types.Type, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	sel := types.NewMethodSet(types.NewPointer(t)).Lookup(m.Config, name)
	if sel == nil {
		return false
	}
	sig, ok := sel.Obj().Type().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool])
}

// examples checks the unit's example configs: every path resolves, each
// value fits its field.
func (c *checker) examples(u *Unit) {
	d := u.D
	names := map[string]bool{}
	for i, e := range d.Examples {
		at := fmt.Sprintf("examples[%d]", i)
		if e.Name == "" || names[e.Name] {
			c.errorf(d, at+".name", "example name %q: expected a name unique in the unit", e.Name)
		}
		names[e.Name] = true
		if len(e.Set) == 0 && len(e.Bools) == 0 && len(e.Drop) == 0 {
			c.errorf(d, at, "an example sets or drops something")
		}
		for _, p := range sortedKeys(e.Set) {
			if n := c.examplePath(d, at+".set", p); n != nil {
				switch {
				case n.Kind != catalog.KindString:
					c.errorf(d, at+".set", "%s is %s: set takes string fields (bools: bool fields)", p, article(n.Kind))
				case len(n.Enum) > 0 && !slices.Contains(n.Enum, e.Set[p]):
					c.errorf(d, at+".set", "%q is not a value of %s: expected one of %s", e.Set[p], p, strings.Join(n.Enum, ", "))
				}
			}
		}
		for _, p := range sortedKeys(e.Bools) {
			if n := c.examplePath(d, at+".bools", p); n != nil && n.Kind != catalog.KindBool {
				c.errorf(d, at+".bools", "%s is %s: bools takes bool fields", p, article(n.Kind))
			}
		}
		for j, p := range e.Drop {
			c.examplePath(d, fmt.Sprintf("%s.drop[%d]", at, j), p)
		}
	}
}

// examplePath resolves a config path whose list items are written [i].
func (c *checker) examplePath(d *descriptor.Loaded, at, p string) *model.Node {
	n := c.in.Model.Root
	for _, seg := range strings.Split(p, ".") {
		key, index, hasIndex := strings.Cut(seg, "[")
		switch {
		case n.Kind == catalog.KindObject:
			next := n.Child(key)
			if next == nil {
				c.errorf(d, at, "path %s: %q is not a key of %s%s", p, key, cmpOr(n.Path, "the config root"), diag.Suggest(key, n.Keys()))
				return nil
			}
			n = next
		case n.Kind == catalog.KindMap:
			n = n.Elem
		default:
			c.errorf(d, at, "path %s: %s is %s and has no key %q", p, n.Path, article(n.Kind), key)
			return nil
		}
		if hasIndex {
			if _, err := strconv.Atoi(strings.TrimSuffix(index, "]")); err != nil || !strings.HasSuffix(index, "]") || n.Kind != catalog.KindList {
				c.errorf(d, at, "path %s: %s is not a list item [i] of %s", p, seg, n.Path)
				return nil
			}
			n = n.Elem
		}
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
