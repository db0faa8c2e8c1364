package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// base checks every Flux unit that applies a path of the base repository
// against the index of each supported release, and records in which
// releases each unit exists. In a release where the path exists: the
// health checks name objects the path creates; a standard unit's override
// Secret is one its HelmRelease reads, under the key the pattern writes; the
// unit's namespace is where the base puts its HelmRelease; and a target
// namespace never moves a source object away from the namespace a
// HelmRelease looks for it in.
func (c *checker) base() {
	if len(c.in.Base) == 0 {
		return
	}
	repo := map[string]string{} // source name -> repo
	for _, u := range c.units {
		for _, s := range u.Sources {
			repo[s.Name] = s.Repo
		}
	}
	for _, u := range c.units {
		releases := map[string]bool{}
		any, missing := false, false
		for _, x := range c.in.Base {
			releases[x.Ref] = true
		}
		for _, f := range u.FluxUnits {
			if repo[f.Source] != string(catalog.RepoBase) || strings.Contains(f.Path, "{") {
				continue
			}
			any = true
			at := cmpOr(f.at, "standard")
			var found []string
			for _, x := range c.in.Base {
				d, ok := x.Dir(f.Path)
				if !ok {
					delete(releases, x.Ref)
					continue
				}
				found = append(found, x.Ref)
				c.baseDir(u, f, at, x, d)
			}
			if len(found) == 0 {
				missing = true
				c.errorf(u.D, at+".path", "%s: %s is not a kustomization directory of the base repository in any supported release (%s)%s",
					f.Name, f.Path, refs(c.in.Base), c.closestDir(f.Path))
			}
		}
		if any {
			u.Releases = []string{}
			for _, x := range c.in.Base {
				if releases[x.Ref] {
					u.Releases = append(u.Releases, x.Ref)
				}
			}
			if len(u.Releases) == 0 && !missing {
				c.errorf(u.D, "flux_units", "no supported base release (%s) holds every base path unit %s applies", refs(c.in.Base), u.Name)
			}
		}
	}
}

func refs(xs []*baseindex.Index) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Ref
	}
	return strings.Join(out, ", ")
}

func (c *checker) closestDir(p string) string {
	var all []string
	for _, x := range c.in.Base {
		for _, d := range x.Dirs {
			all = append(all, d.Path)
		}
	}
	slices.Sort(all)
	return diag.Suggest(p, slices.Compact(all))
}

// baseDir checks one Flux unit against one release's directory.
func (c *checker) baseDir(u *Unit, f FluxUnit, at string, x *baseindex.Index, d *baseindex.Dir) {
	if d.Error != "" {
		c.errorf(u.D, at+".path", "%s: %s does not build at base %s: %s", f.Name, f.Path, x.Ref, d.Error)
		return
	}
	if len(f.Only) > 0 {
		return // it applies only objects of those kinds, Namespaces, which no target namespace moves
	}
	ns := func(s string) string { return strings.ReplaceAll(s, "{namespace}", u.Namespace) }
	target := ns(f.TargetNamespace)
	// where builds the namespace an object ends up in under the target namespace.
	where := func(o baseindex.Object) string {
		if target != "" && (o.Namespace != "" || !catalog.ClusterScoped(o.Kind)) {
			return target
		}
		return o.Namespace
	}
	for i, h := range f.HealthChecks {
		hp := fmt.Sprintf("%s.health_checks[%d]", at, i)
		if f.at == "" {
			hp = at
		}
		ok := slices.ContainsFunc(d.Objects, func(o baseindex.Object) bool {
			return o.Kind == h.Kind && o.Name == h.Name && (h.Namespace == "" || where(o) == ns(h.Namespace))
		})
		if !ok {
			c.errorf(u.D, hp, "%s: health check %s %s/%s names no object that %s creates at base %s",
				f.Name, h.Kind, ns(h.Namespace), h.Name, f.Path, x.Ref)
		}
	}
	for _, o := range d.Objects {
		if !isSource(o.Kind) || o.Namespace == "" || target == "" || o.Namespace == target {
			continue
		}
		for _, hr := range d.HelmReleases {
			if hr.Source.Kind == o.Kind && hr.Source.Name == o.Name && hr.Source.Namespace == o.Namespace {
				c.errorf(u.D, at+".target_namespace", "%s: target namespace %s would move %s %s/%s, which HelmRelease %s reads from namespace %s, at base %s: use target_namespace: none",
					f.Name, target, o.Kind, o.Namespace, o.Name, hr.Name, o.Namespace, x.Ref)
			}
		}
	}
	if u.HelmRelease == "" || f.Name != u.Name+"-base" {
		return
	}
	i := slices.IndexFunc(d.HelmReleases, func(h baseindex.HelmRelease) bool { return h.Name == u.HelmRelease })
	if i < 0 {
		c.errorf(u.D, "standard", "%s: %s has no HelmRelease %s at base %s", f.Name, f.Path, u.HelmRelease, x.Ref)
		return
	}
	hr := d.HelmReleases[i]
	if got := cmpOr(target, hr.Namespace); got != u.Namespace {
		c.errorf(u.D, "namespace", "namespace %s: the base puts HelmRelease %s in namespace %s at base %s, so the override Secret would not be found", u.Namespace, hr.Name, got, x.Ref)
	}
	if !slices.ContainsFunc(hr.ValuesFrom, func(v baseindex.ValuesRef) bool {
		return v.Kind == "Secret" && v.Name == u.ValuesSecret && v.ValuesKey == catalog.OverrideValuesKey
	}) {
		var reads []string
		for _, v := range hr.ValuesFrom {
			reads = append(reads, fmt.Sprintf("%s %s key %s", v.Kind, v.Name, cmpOr(v.ValuesKey, "values.yaml")))
		}
		c.errorf(u.D, "standard", "%s: HelmRelease %s does not read Secret %s with valuesKey %s at base %s; it reads: %s",
			f.Name, hr.Name, u.ValuesSecret, catalog.OverrideValuesKey, x.Ref, strings.Join(reads, "; "))
	}
}

func isSource(kind string) bool {
	return kind == "GitRepository" || kind == "HelmRepository" || kind == "OCIRepository" || kind == "Bucket"
}
