package check

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

var (
	fieldPath = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)
)

// Input is what the checker reads.
type Input struct {
	Model       *model.Model
	Descriptors []*descriptor.Loaded
	// Dir is the descriptors folder relative to the module root ("descriptors").
	Dir string
	// Templates lists the files under <Dir>/files, relative to it.
	Templates []string
	// ReadTemplate returns a template's text.
	ReadTemplate func(rel string) (string, error)
	// Failed names units whose descriptor did not decode: their files are not
	// reported as unowned (that would only repeat the decoding error).
	Failed []string
	// Base holds the index of every supported base release.
	Base []*baseindex.Index
	// Schemas lists the files under <Dir>/schemas, relative to it.
	Schemas []string
}

type checker struct {
	in    Input
	diags diag.List
	units []*Unit
}

// Check checks everything and returns the units, sorted by name.
func Check(in Input) ([]*Unit, error) {
	c := &checker{in: in}
	seen := map[string]*descriptor.Loaded{}
	for _, d := range in.Descriptors {
		if prev, dup := seen[d.Name]; dup && d.Name != "" {
			c.errorf(d, "name", "duplicate unit name %q (also in %s)", d.Name, prev.File)
			continue
		}
		seen[d.Name] = d
		if u := c.unit(d); u != nil {
			c.units = append(c.units, u)
		}
	}
	slices.SortFunc(c.units, func(a, b *Unit) int { return strings.Compare(a.Name, b.Name) })
	c.crossUnit()
	c.base()
	c.facts()
	c.ownership()
	c.templates()
	return c.units, c.diags.Err()
}

func (c *checker) errorf(d *descriptor.Loaded, p, format string, args ...any) {
	c.diags = append(c.diags, d.Diag(p, format, args...))
}

func (c *checker) unit(d *descriptor.Loaded) *Unit {
	if d.APIVersion != descriptor.APIVersion {
		c.errorf(d, "apiVersion", "apiVersion %q: expected %q", d.APIVersion, descriptor.APIVersion)
	}
	if d.Kind != descriptor.Kind {
		c.errorf(d, "kind", "kind %q: expected %q", d.Kind, descriptor.Kind)
	}
	if d.Name == "" {
		c.errorf(d, "name", "name is required")
		return nil
	}
	if !config.IsDNSLabel(d.Name) {
		c.errorf(d, "name", "unit name %q is not a DNS-1123 label", d.Name)
	}
	if base := strings.TrimSuffix(path.Base(d.File), ".yaml"); base != d.Name {
		c.errorf(d, "name", "unit %q is in %s: a descriptor's file is named after its unit (%s.yaml), and its files live in files/%s/", d.Name, path.Base(d.File), d.Name, d.Name)
	}
	u := &Unit{D: d, Name: d.Name, Layer: d.Layer, Description: d.Description, Namespace: d.Namespace, Requires: d.Requires}
	for i, r := range d.Requires {
		if r == d.Name {
			c.errorf(d, fmt.Sprintf("requires[%d]", i), "unit %s requires itself", d.Name)
		}
	}
	layers := make([]string, len(catalog.Layers))
	for i, l := range catalog.Layers {
		layers[i] = string(l)
	}
	if !slices.Contains(layers, d.Layer) {
		c.errorf(d, "layer", "unknown layer %q: expected one of %s%s", d.Layer, strings.Join(layers, ", "), diag.Suggest(d.Layer, layers))
		return nil
	}
	c.gate(u)
	if d.EnabledWhen != nil {
		if k := c.cond(d, "enabled_when", d.EnabledWhen); k != nil {
			u.Gate = append(u.Gate, k)
		}
	}
	if d.ActiveWith != nil {
		if len(u.Gate) > 0 {
			c.errorf(d, "active_with", "active_with replaces the gate: drop service/managed_service/enabled_when or active_with")
		}
		u.ActiveWith = d.ActiveWith.Units
		if d.ActiveWith.Layer != "" && !slices.Contains(layers, d.ActiveWith.Layer) {
			c.errorf(d, "active_with.layer", "unknown layer %q: expected one of %s", d.ActiveWith.Layer, strings.Join(layers, ", "))
		}
	}
	if d.Overlay != nil {
		u.Root = d.Overlay.Root
		if bad := badRel(u.Root); bad != "" && u.Root != "" {
			c.errorf(d, "overlay.root", "overlay root %q %s", u.Root, bad)
		}
	}
	u.Sources = d.Sources
	for i, fu := range d.FluxUnits {
		f := FluxUnit{FluxUnit: fu, at: fmt.Sprintf("flux_units[%d]", i)}
		c.fluxFields(d, f.at, fu)
		if fu.When != nil {
			f.When = c.cond(d, f.at+".when", fu.When)
		}
		u.FluxUnits = append(u.FluxUnits, f)
	}
	if d.Overlay != nil {
		for i, f := range d.Overlay.Files {
			c.file(u, i, f)
		}
	}
	if d.Standard {
		c.standard(u)
	} else {
		if d.HelmRelease != "" || d.ValuesSecret != "" {
			c.errorf(d, "helm_release", "helm_release and values_secret belong to standard units (standard: true)")
		}
		if len(d.ValuesFrom) > 0 {
			c.errorf(d, "values_from", "values_from belongs to standard units (standard: true): it adds to the valuesFrom of their base HelmRelease")
		}
	}
	return u
}

// valuesFrom checks the descriptor's values_from entries.
func (c *checker) valuesFrom(d *descriptor.Loaded) []ValuesFrom {
	var out []ValuesFrom
	for i, v := range d.ValuesFrom {
		at := fmt.Sprintf("values_from[%d]", i)
		e := ValuesFrom{Secret: v.Secret}
		switch {
		case (v.Secret == "") == (v.SecretField == ""):
			c.errorf(d, at, "give secret (the Secret's name) or secret_field (a config field naming it), not both or neither")
			continue
		case v.Secret != "" && !config.MatchFormat("dns-subdomain", v.Secret):
			c.errorf(d, at+".secret", "secret %q: expected a DNS-1123 subdomain", v.Secret)
			continue
		case v.SecretField != "":
			e.Field = c.cond(d, at+".secret_field", &descriptor.Condition{Field: v.SecretField, Operator: descriptor.OpExists})
			if e.Field == nil {
				continue
			}
			if leaf := e.Field.Chain[len(e.Field.Chain)-1]; leaf.Kind != catalog.KindString || leaf.Ptr || leaf.Format != "dns-subdomain" {
				c.errorf(d, at+".secret_field", "field %s is %s (format %q): expected a string field of format dns-subdomain, which validation holds to a Secret's name", v.SecretField, article(leaf.Kind), leaf.Format)
				continue
			}
		}
		if v.When != nil {
			if e.When = c.cond(d, at+".when", v.When); e.When == nil {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// gate resolves service / managed_service into the enabled condition.
func (c *checker) gate(u *Unit) {
	d := u.D
	key, p, section := d.Service, "service", "opencenter.services"
	if d.ManagedService != "" {
		key, p, section = d.ManagedService, "managed_service", "opencenter.managed_services"
		if d.Service != "" {
			c.errorf(d, "service", "set service or managed_service, not both")
		}
	}
	if key == "" {
		return
	}
	want := map[string]string{"service": "services", "managed_service": "managed-services"}[p]
	if d.Layer != want {
		c.errorf(d, p, "%s gates a unit of layer %s, not %s", p, want, d.Layer)
	}
	chain, _, _ := c.in.Model.Lookup(section)
	sect := chain[len(chain)-1]
	n := sect.Child(key)
	if n == nil {
		c.errorf(d, p, "%s %q has no field in %s%s", p, key, section, diag.Suggest(key, sect.Keys()))
		return
	}
	u.ServiceKey, u.ServiceNode = key, n
	c.service(u, p)
	if u.Namespace == "" {
		c.errorf(d, "namespace", "namespace is required for a service unit: the namespace the base repo deploys %s to", key)
	}
	secSection := "secrets.services"
	if p == "managed_service" {
		secSection = "secrets.managed_services"
	}
	if sc, _, bad := c.in.Model.Lookup(secSection + "." + key); bad < 0 {
		u.SecretsNode = sc[len(sc)-1]
	}
	u.Gate = append(u.Gate, c.cond(d, p, &descriptor.Condition{Field: section + "." + key + ".enabled", Operator: descriptor.OpTrue}))
}

func badRel(p string) string {
	switch {
	case p == "":
		return "is empty"
	case strings.HasPrefix(p, "/"):
		return "must be relative"
	case slices.Contains(strings.Split(p, "/"), ".."), path.Clean(p) != p:
		return "must be a clean path without .."
	}
	return ""
}

func (c *checker) file(u *Unit, i int, f descriptor.File) {
	at := fmt.Sprintf("overlay.files[%d]", i)
	if bad := badRel(f.Path); bad != "" {
		c.errorf(u.D, at+".path", "file path %q %s", f.Path, bad)
		return
	}
	cf := File{Out: f.Path, Builtin: f.Builtin, at: at}
	if f.When != nil {
		cf.When = c.cond(u.D, at+".when", f.When)
	}
	if f.Builtin != "" {
		names := make([]string, len(catalog.Builtins))
		for i, b := range catalog.Builtins {
			names[i] = string(b)
		}
		if !slices.Contains(names, f.Builtin) {
			c.errorf(u.D, at+".builtin", "unknown builtin %q: expected one of %s%s", f.Builtin, strings.Join(names, ", "), diag.Suggest(f.Builtin, names))
		}
		cf.Secret = f.Builtin == string(catalog.BuiltinCustomerManaged)
		if f.Builtin == string(catalog.BuiltinStandard) && !u.D.Standard {
			c.errorf(u.D, at+".builtin", "builtin standard is the kustomization of a standard unit (standard: true)")
		}
	} else {
		cf.Template = u.Name + "/" + f.Path
		cf.IsTemplate = strings.HasSuffix(f.Path, ".tpl")
		cf.Out = strings.TrimSuffix(f.Path, ".tpl")
		if !slices.Contains(c.in.Templates, cf.Template) {
			c.errorf(u.D, at+".path", "no file %s/files/%s: every overlay file lives under %s/files/<unit>/", c.in.Dir, cf.Template, c.in.Dir)
			return
		}
	}
	u.Files = append(u.Files, cf)
}

// standard expands the standard service pattern; explicit parts of the
// descriptor with the same name win, what they omit comes from the pattern.
func (c *checker) standard(u *Unit) {
	d := u.D
	if u.ServiceKey == "" {
		c.errorf(d, "standard", "standard: true needs a service or managed_service gate")
		return
	}
	layerDir := catalog.Layer(d.Layer).Dir()
	u.HelmRelease = cmpOr(d.HelmRelease, u.Name)
	u.ValuesSecret = cmpOr(d.ValuesSecret, u.HelmRelease+"-values-override")
	src := "opencenter-" + u.Name
	base := descriptor.FluxUnit{
		Name: u.Name + "-base", Source: src,
		Path:            "applications/base/" + layerDir + "/" + u.Name,
		TargetNamespace: "{namespace}",
		DependsOn:       []string{SourcesUnit(catalog.Layer(d.Layer))},
		HealthChecks:    []descriptor.HealthCheck{{APIVersion: "helm.toolkit.fluxcd.io/v2", Kind: "HelmRelease", Name: u.HelmRelease, Namespace: "{namespace}"}},
	}
	// The values come first: helm-controller installs a HelmRelease with
	// the values it finds, and what a chart reads only at install keeps
	// them. The override Secrets go into the service's namespace, so when
	// the base directory creates it, a Flux unit applies only that
	// Namespace before them, and the base unit leaves it to that unit.
	override := descriptor.FluxUnit{
		Name: u.Name + "-override", Source: "flux-system",
		Path:            "{overlay}/" + layerDir + "/" + u.Name,
		TargetNamespace: "{namespace}",
	}
	own := map[string]bool{} // the pattern's units whose dependsOn the descriptor gives
	var fus []FluxUnit
	for _, p := range []descriptor.FluxUnit{base, override} {
		merged := FluxUnit{FluxUnit: p}
		for i, o := range u.FluxUnits {
			if o.Name == p.Name {
				own[p.Name] = o.DependsOn != nil
				merged = mergeFlux(merged, o)
				u.FluxUnits = slices.Delete(u.FluxUnits, i, i+1)
				break
			}
		}
		fus = append(fus, merged)
	}
	b, o := &fus[0], &fus[1]
	var nsUnit []FluxUnit
	if !own[o.Name] {
		o.DependsOn = slices.Clone(b.DependsOn)
		nsName := u.Name + "-namespace"
		if dir, ok := c.namespaceDir(b.Path); ok && !slices.ContainsFunc(u.FluxUnits, func(f FluxUnit) bool { return f.Name == nsName }) {
			ns := FluxUnit{FluxUnit: descriptor.FluxUnit{
				Name: nsName, Source: b.Source, Path: dir, TargetNamespace: b.TargetNamespace,
				DependsOn: slices.Clone(b.DependsOn),
			}, at: b.at}
			if dir == b.Path {
				ns.Only = []string{"Namespace"}
			}
			o.DependsOn = []string{nsName}
			nsUnit = append(nsUnit, ns)
		}
	}
	if !slices.Contains(b.DependsOn, o.Name) {
		b.DependsOn = append(b.DependsOn, o.Name)
	}
	b.ValuesFrom = c.valuesFrom(d)
	u.FluxUnits = slices.Concat(fus, nsUnit, u.FluxUnits)
	used := false
	for _, f := range u.FluxUnits {
		used = used || f.Source == src
	}
	if used && !slices.ContainsFunc(u.Sources, func(s descriptor.Source) bool { return s.Name == src }) {
		u.Sources = append([]descriptor.Source{{Name: src, Repo: string(catalog.RepoBase)}}, u.Sources...)
	}
	if u.Root == "" {
		u.Root = layerDir + "/" + u.Name
	}
	if !slices.ContainsFunc(u.Files, func(f File) bool { return f.Out == "kustomization.yaml" }) {
		u.Files = append(u.Files, File{Out: "kustomization.yaml", Builtin: string(catalog.BuiltinStandard)})
	}
	if !slices.ContainsFunc(u.Files, func(f File) bool { return f.Out == "helm-values/override-values.yaml" }) {
		c.errorf(d, "standard", "a standard unit must list helm-values/override-values.yaml(.tpl) in overlay.files: the values the override Secret %s carries", u.ValuesSecret)
	}
}

// namespaceDir returns the directory of the Namespace manifest that the
// base directory at path applies, in a release that holds it and builds
// offline (a remote resource would be fetched only to be dropped): path
// itself (a Flux unit of only its Namespace builds it), or a directory of
// its own under path (harbor's namespace/, which a Flux unit builds whole).
// ok is false when path creates no Namespace.
func (c *checker) namespaceDir(path string) (dir string, ok bool) {
	for _, x := range c.in.Base {
		d, found := x.Dir(path)
		if !found || len(d.Remote) > 0 || d.Error != "" {
			continue
		}
		for _, o := range d.Objects {
			switch {
			case o.Kind != "Namespace" || o.APIVersion != "v1":
			case o.Home == "":
				return path, true
			case strings.HasPrefix(o.Home, path+"/"):
				return o.Home, true
			}
		}
	}
	return "", false
}

// mergeFlux lays the descriptor's own fields over the pattern's.
func mergeFlux(p FluxUnit, own FluxUnit) FluxUnit {
	o := own.FluxUnit
	m := p
	m.at = own.at
	m.When = own.When
	m.FluxUnit.When = o.When
	m.Source = cmpOr(o.Source, p.Source)
	m.Path = cmpOr(o.Path, p.Path)
	m.TargetNamespace = cmpOr(o.TargetNamespace, p.TargetNamespace)
	if o.TargetNamespace == descriptor.NoTargetNamespace {
		m.TargetNamespace = ""
	}
	if o.Provides != nil {
		m.Provides = o.Provides
	}
	if o.Needs != nil {
		m.Needs = o.Needs
	}
	if o.Wants != nil {
		m.Wants = o.Wants
	}
	if o.Only != nil {
		m.Only = o.Only
	}
	m.Wait = o.Wait || p.Wait
	if o.DependsOn != nil {
		m.DependsOn = o.DependsOn
	}
	if o.HealthChecks != nil {
		m.HealthChecks = o.HealthChecks
	}
	return m
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// SourcesUnit names the Flux unit that applies a layer's sources.
func SourcesUnit(l catalog.Layer) string {
	if l.Dir() == string(catalog.LayerServices) {
		return "sources"
	}
	return l.Dir() + "-sources"
}

// cond checks and resolves a condition at YAML path at.
func (c *checker) cond(d *descriptor.Loaded, at string, k *descriptor.Condition) *Cond {
	ok := true
	if !fieldPath.MatchString(k.Field) {
		c.errorf(d, at+".field", "field path %q: expected dotted keys such as opencenter.services.keycloak.enabled", k.Field)
		return nil
	}
	switch k.Operator {
	case descriptor.OpEquals, descriptor.OpNotEquals:
		if k.Value == "" {
			c.errorf(d, at+".operator", "operator %s needs a non-empty value", k.Operator)
			ok = false
		}
	case descriptor.OpExists, descriptor.OpTrue, descriptor.OpFalse:
		if k.Value != "" {
			c.errorf(d, at+".value", "operator %s takes no value (got %q)", k.Operator, k.Value)
			ok = false
		}
	default:
		c.errorf(d, at+".operator", "unknown operator %q: expected one of %s%s", k.Operator, strings.Join(descriptor.Operators, ", "), diag.Suggest(string(k.Operator), descriptor.Operators))
		return nil
	}
	chain, keys, bad := c.in.Model.Lookup(k.Field)
	if bad >= 0 {
		segs := strings.Split(k.Field, ".")
		parent := c.in.Model.Root
		if len(chain) > 0 {
			parent = chain[len(chain)-1]
		}
		if parent.Kind != catalog.KindObject {
			c.errorf(d, at+".field", "field path %q: %s is %s and has no key %q", k.Field, strings.Join(segs[:bad], "."), article(parent.Kind), segs[bad])
		} else {
			c.errorf(d, at+".field", "field path %q: %q is not a key of %s%s", k.Field, segs[bad], cmpOr(strings.Join(segs[:bad], "."), "the config root"), diag.Suggest(segs[bad], parent.Keys()))
		}
		return nil
	}
	leaf := chain[len(chain)-1]
	switch {
	case leaf.Kind == catalog.KindObject && !leaf.Ptr:
		c.errorf(d, at+".field", "field path %q is an object, not a leaf: name one of its keys (%s)", k.Field, strings.Join(leaf.Keys(), ", "))
		return nil
	case (k.Operator == descriptor.OpTrue || k.Operator == descriptor.OpFalse) && leaf.Kind != catalog.KindBool:
		c.errorf(d, at+".operator", "operator %s needs a bool field; %s is %s", k.Operator, k.Field, article(leaf.Kind))
		return nil
	case k.Operator == descriptor.OpEquals || k.Operator == descriptor.OpNotEquals:
		switch leaf.Kind {
		case catalog.KindString:
			if len(leaf.Enum) > 0 && !slices.Contains(leaf.Enum, k.Value) {
				c.errorf(d, at+".value", "%q is not a value of %s: expected one of %s%s", k.Value, k.Field, strings.Join(leaf.Enum, ", "), diag.Suggest(k.Value, leaf.Enum))
				ok = false
			}
		case catalog.KindInt:
			if _, err := strconv.ParseInt(k.Value, 10, 64); err != nil {
				c.errorf(d, at+".value", "%q is not an integer, and %s is an int field", k.Value, k.Field)
				ok = false
			}
		case catalog.KindNumber:
			if _, err := strconv.ParseFloat(k.Value, 64); err != nil {
				c.errorf(d, at+".value", "%q is not a number, and %s is a number field", k.Value, k.Field)
				ok = false
			}
		case catalog.KindBool:
			if k.Value != "true" && k.Value != "false" {
				c.errorf(d, at+".value", "%q is not true or false, and %s is a bool field", k.Value, k.Field)
				ok = false
			}
		default:
			c.errorf(d, at+".operator", "operator %s needs a string, number, bool or enum field; %s is %s (use exists)", k.Operator, k.Field, article(leaf.Kind))
			ok = false
		}
	}
	if !ok {
		return nil
	}
	text := k.Field + " " + map[descriptor.Operator]string{descriptor.OpEquals: "equals " + strconv.Quote(k.Value), descriptor.OpNotEquals: "does not equal " + strconv.Quote(k.Value), descriptor.OpExists: "is set", descriptor.OpTrue: "is true", descriptor.OpFalse: "is false"}[k.Operator]
	return &Cond{Text: text, Chain: chain, Keys: keys, Op: k.Operator, Value: k.Value}
}

// article prefixes a kind with "a" or "an".
func article(k catalog.Kind) string {
	if strings.ContainsRune("aeiou", rune(string(k)[0])) {
		return "an " + string(k)
	}
	return "a " + string(k)
}

// placeholders are what flux unit paths and namespaces may contain.
var placeholder = regexp.MustCompile(`\{[^}]*\}`)

// fluxFields checks a flux unit's path, target namespace and health checks.
func (c *checker) fluxFields(d *descriptor.Loaded, at string, f descriptor.FluxUnit) {
	for _, ph := range placeholder.FindAllString(f.Path, -1) {
		if ph != "{overlay}" && ph != "{namespace}" {
			c.errorf(d, at+".path", "unknown placeholder %s in path %q: expected {overlay} or {namespace}", ph, f.Path)
		}
	}
	if strings.HasPrefix(f.Path, "/") || strings.Contains(f.Path, "..") {
		c.errorf(d, at+".path", "path %q must be relative to the source root, without ..", f.Path)
	}
	if ns := f.TargetNamespace; ns != "" && ns != "{namespace}" && ns != descriptor.NoTargetNamespace && !config.IsDNSLabel(ns) {
		c.errorf(d, at+".target_namespace", "target_namespace %q: expected {namespace} or a DNS-1123 label", ns)
	}
	for i, h := range f.HealthChecks {
		hp := fmt.Sprintf("%s.health_checks[%d]", at, i)
		if h.APIVersion == "" || h.Kind == "" || h.Name == "" {
			c.errorf(d, hp, "a health check needs api_version, kind and name")
		}
		if ns := h.Namespace; ns != "" && ns != "{namespace}" && !config.IsDNSLabel(ns) {
			c.errorf(d, hp+".namespace", "namespace %q: expected {namespace} or a DNS-1123 label", ns)
		}
	}
	seen := map[string]bool{}
	for i, dep := range f.DependsOn {
		if seen[dep] {
			c.errorf(d, fmt.Sprintf("%s.depends_on[%d]", at, i), "depends_on lists %s twice", dep)
		}
		seen[dep] = true
	}
}
