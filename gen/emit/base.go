package emit

import (
	"maps"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
)

// Base emits the index of every supported base release as runtime tables:
// the objects each base directory creates, for the render's CRD ordering,
// object ownership and release checks.
func Base(xs []*baseindex.Index) ([]byte, error) {
	f := newFile()
	f.Comment("BaseReleases is the index of every supported base release, from descriptors/base-index.")
	var rels []jen.Code
	for _, x := range xs {
		var keys []string
		byPath := map[string]baseindex.Dir{}
		for _, d := range x.Dirs {
			keys = append(keys, d.Path)
			byPath[d.Path] = d
		}
		slices.Sort(keys)
		var entries []jen.Code
		for _, k := range keys {
			var objs []jen.Code
			for _, o := range byPath[k].Objects {
				f := []jen.Code{jen.Id("APIVersion").Op(":").Lit(o.APIVersion), jen.Id("Kind").Op(":").Lit(o.Kind), jen.Id("Name").Op(":").Lit(o.Name)}
				if o.Namespace != "" {
					f = append(f, jen.Id("Namespace").Op(":").Lit(o.Namespace))
				}
				if o.CRDGroup != "" {
					f = append(f, jen.Id("CRDGroup").Op(":").Lit(o.CRDGroup))
				}
				if o.Generated {
					f = append(f, jen.Id("Generated").Op(":").True())
				}
				if ns := installNamespace(byPath[k], o); ns != "" {
					f = append(f, jen.Id("InstallNamespace").Op(":").Lit(ns))
				}
				if o.Home != "" {
					f = append(f, jen.Id("Home").Op(":").Lit(o.Home))
				}
				objs = append(objs, jen.Line().Values(f...))
			}
			entries = append(entries, jen.Line().Lit(k).Op(":").Values(append(objs, jen.Line())...))
		}
		charts, err := x.Charts()
		if err != nil {
			return nil, err
		}
		var chartEntries []jen.Code
		for _, c := range slices.Sorted(maps.Keys(charts)) {
			chartEntries = append(chartEntries, jen.Line().Lit(c).Op(":").Lit(charts[c]))
		}
		rel := []jen.Code{
			jen.Id("Ref").Op(":").Lit(x.Ref),
			jen.Id("Commit").Op(":").Lit(x.Commit),
			jen.Id("Dirs").Op(":").Map(jen.String()).Index().Qual(CatalogPkg, "BaseObject").Values(append(entries, jen.Line())...),
		}
		if x.Branch {
			rel = append(rel, jen.Id("Branch").Op(":").True())
		}
		if len(chartEntries) > 0 {
			rel = append(rel, jen.Id("Charts").Op(":").Map(jen.String()).String().Values(append(chartEntries, jen.Line())...))
		}
		rels = append(rels, values(rel...))
	}
	f.Var().Id("BaseReleases").Op("=").Index().Qual(CatalogPkg, "BaseRelease").Add(values(rels...))
	return render(f)
}

// installNamespace is the spec.targetNamespace of o when o is one of d's
// HelmReleases.
func installNamespace(d baseindex.Dir, o baseindex.Object) string {
	if o.Kind != "HelmRelease" {
		return ""
	}
	for _, h := range d.HelmReleases {
		if h.Name == o.Name && h.Namespace == o.Namespace {
			return h.TargetNamespace
		}
	}
	return ""
}
