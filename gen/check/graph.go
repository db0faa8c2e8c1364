package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// FluxSystem is the source flux bootstrap creates for the cluster repo.
const FluxSystem = "flux-system"

type owner struct {
	u  *Unit
	at string
}

// crossUnit checks names and references between units: sources, Flux units,
// depends_on, requires, active_with, and the dependency graph's cycles.
func (c *checker) crossUnit() {
	units := map[string]*Unit{}
	sources := map[string]owner{FluxSystem: {}}
	flux := map[string]owner{}
	provides := map[string]owner{} // API group -> the Flux unit installing its CRDs
	var unitNames []string
	for _, u := range c.units {
		units[u.Name] = u
		unitNames = append(unitNames, u.Name)
		for i, s := range u.Sources {
			at := fmt.Sprintf("sources[%d]", i)
			if i >= len(u.D.Sources) || u.D.Sources[i].Name != s.Name {
				at = "standard"
			}
			if !config.IsDNSLabel(s.Name) {
				c.errorf(u.D, at+".name", "source name %q is not a DNS-1123 label", s.Name)
			}
			if s.Name == FluxSystem {
				c.errorf(u.D, at+".name", "source name %q is reserved: flux bootstrap creates it for the cluster repo (use repo: cluster under another name, or source: flux-system in flux units)", s.Name)
				continue
			}
			if prev, dup := sources[s.Name]; dup {
				c.errorf(u.D, at+".name", "duplicate source name %q%s", s.Name, prevWhere(prev))
				continue
			}
			sources[s.Name] = owner{u, at}
			if r := catalog.Repo(s.Repo); r != catalog.RepoBase && r != catalog.RepoCluster && r != catalog.RepoCustomer {
				c.errorf(u.D, at+".repo", "unknown repo %q: expected base, cluster or customer%s", s.Repo, diag.Suggest(s.Repo, []string{"base", "cluster", "customer"}))
			}
		}
		for _, f := range u.FluxUnits {
			at := cmpOr(f.at, "standard")
			if !config.IsDNSLabel(f.Name) {
				c.errorf(u.D, at+".name", "flux unit name %q is not a DNS-1123 label", f.Name)
			}
			if prev, dup := flux[f.Name]; dup {
				c.errorf(u.D, at+".name", "duplicate flux unit name %q%s", f.Name, prevWhere(prev))
				continue
			}
			flux[f.Name] = owner{u, at}
			for i, g := range f.Provides {
				if prev, dup := provides[g]; dup {
					c.errorf(u.D, fmt.Sprintf("%s.provides[%d]", at, i), "API group %s is provided twice: CRDs have one installer%s", g, prevWhere(prev))
					continue
				}
				provides[g] = owner{u, at}
			}
			if f.Path == "" {
				c.errorf(u.D, at+".path", "flux unit %s needs a path", f.Name)
			}
		}
	}
	names := func(m map[string]owner) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	for _, u := range c.units {
		for _, f := range u.FluxUnits {
			at := cmpOr(f.at, "standard")
			if _, ok := sources[f.Source]; !ok {
				c.errorf(u.D, at+".source", "flux unit %s: source %q is emitted by no unit (nor is it flux-system)%s", f.Name, f.Source, diag.Suggest(f.Source, names(sources)))
			}
			for j, dep := range f.DependsOn {
				if _, ok := flux[dep]; !ok {
					c.errorf(u.D, fmt.Sprintf("%s.depends_on[%d]", at, j), "flux unit %s depends on %q, which no unit emits%s", f.Name, dep, diag.Suggest(dep, names(flux)))
				}
			}
			for _, list := range [...]struct {
				field  string
				groups []string
			}{{"needs", f.Needs}, {"wants", f.Wants}} {
				for j, g := range list.groups {
					if _, ok := provides[g]; !ok {
						c.errorf(u.D, fmt.Sprintf("%s.%s[%d]", at, list.field, j), "flux unit %s %s API group %q, which no flux unit provides%s", f.Name, list.field, g, diag.Suggest(g, names(provides)))
					}
				}
			}
			// A unit applying a path's Namespaces before the rest is the one
			// use: the render takes the other objects out of its build.
			if len(f.Only) > 0 && !slices.Equal(f.Only, []string{"Namespace"}) {
				c.errorf(u.D, at+".only", "flux unit %s: only %v: expected [Namespace], the kind a unit applies ahead of the rest of its path", f.Name, f.Only)
			}
		}
		for i, s := range u.Sources {
			for j, inc := range s.Include {
				if _, ok := sources[inc.Source]; !ok || inc.Source == FluxSystem {
					c.errorf(u.D, fmt.Sprintf("sources[%d].include[%d].source", i, j), "include of %q: no unit emits that source%s", inc.Source, diag.Suggest(inc.Source, names(sources)))
				}
			}
		}
		for j, r := range u.Requires {
			if _, ok := units[r]; !ok {
				c.errorf(u.D, fmt.Sprintf("requires[%d]", j), "requires unknown unit %q%s", r, diag.Suggest(r, unitNames))
			}
		}
		if u.D.ActiveWith != nil {
			for j, r := range u.D.ActiveWith.Units {
				if _, ok := units[r]; !ok {
					c.errorf(u.D, fmt.Sprintf("active_with.units[%d]", j), "active_with names unknown unit %q%s", r, diag.Suggest(r, unitNames))
				}
			}
			if l := u.D.ActiveWith.Layer; l != "" {
				for _, o := range c.units {
					if o.Layer == l && o != u && o.D.ActiveWith == nil && !slices.Contains(u.ActiveWith, o.Name) {
						u.ActiveWith = append(u.ActiveWith, o.Name)
					}
				}
			}
			slices.Sort(u.ActiveWith)
			if len(u.ActiveWith) == 0 {
				c.errorf(u.D, "active_with", "active_with matches no unit")
			}
		}
	}
	c.cycles(flux)
}

func prevWhere(o owner) string {
	if o.u == nil {
		return " (reserved for flux bootstrap)"
	}
	return fmt.Sprintf(" (also in %s)", o.u.D.File)
}

// cycles reports each dependency cycle of the Flux units once.
func (c *checker) cycles(flux map[string]owner) {
	deps := map[string][]string{}
	for _, u := range c.units {
		for _, f := range u.FluxUnits {
			deps[f.Name] = f.DependsOn
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	reported := map[string]bool{}
	var stack []string
	var visit func(n string)
	visit = func(n string) {
		color[n] = grey
		stack = append(stack, n)
		for _, d := range deps[n] {
			switch color[d] {
			case grey:
				i := slices.Index(stack, d)
				cyc := append(slices.Clone(stack[i:]), d)
				key := slices.Clone(cyc[:len(cyc)-1])
				slices.Sort(key)
				if k := strings.Join(key, ","); !reported[k] {
					reported[k] = true
					o := flux[d]
					c.errorf(o.u.D, cmpOr(o.at, "standard")+".depends_on", "dependency cycle: %s", strings.Join(cyc, " -> "))
				}
			case white:
				if _, ok := deps[d]; ok {
					visit(d)
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	var all []string
	for n := range deps {
		all = append(all, n)
	}
	slices.Sort(all)
	for _, n := range all {
		if color[n] == white {
			visit(n)
		}
	}
}

// ownership checks that every file under descriptors/files has exactly one
// owner and that no two owned files render to the same output path.
func (c *checker) ownership() {
	type output struct {
		owner
		template string
	}
	owners := map[string][]string{}
	outs := map[string]output{}
	for _, u := range c.units {
		for _, f := range u.Files {
			if f.Template != "" {
				owners[f.Template] = append(owners[f.Template], u.Name)
			}
			out := f.Out
			if u.Root != "" {
				out = u.Root + "/" + f.Out
			}
			at := cmpOr(f.at, "standard")
			if prev, dup := outs[out]; dup {
				c.errorf(u.D, at+".path", "output path %s is rendered twice: also by %s:%d%s", out, prev.u.D.File, prev.u.D.Pos.Of(prev.at).Line, tplHint(prev.template, f.Template))
				continue
			}
			outs[out] = output{owner{u, at}, f.Template}
		}
	}
	for _, t := range c.in.Templates {
		if slices.Contains(c.in.Failed, strings.SplitN(t, "/", 2)[0]) {
			continue
		}
		switch n := len(owners[t]); {
		case n == 0:
			c.diags = append(c.diags, diag.Diag{File: c.in.Dir + "/files/" + t, Line: 1, Col: 1,
				Msg: "no descriptor owns this file: list it in overlay.files of " + c.in.Dir + "/" + strings.SplitN(t, "/", 2)[0] + ".yaml, or delete it"})
		case n > 1:
			c.diags = append(c.diags, diag.Diag{File: c.in.Dir + "/files/" + t, Line: 1, Col: 1,
				Msg: fmt.Sprintf("owned %d times (%s): every file has exactly one owner", n, strings.Join(owners[t], ", "))})
		}
	}
}

// tplHint explains the usual cause of a collision: x.yaml beside x.yaml.tpl.
func tplHint(a, b string) string {
	if a != "" && (a+".tpl" == b || b+".tpl" == a) {
		return " (x.yaml and x.yaml.tpl render to the same file)"
	}
	return ""
}
