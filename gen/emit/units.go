package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

var layerConst = map[string]string{
	string(catalog.LayerCluster):         "LayerCluster",
	string(catalog.LayerServices):        "LayerServices",
	string(catalog.LayerManagedServices): "LayerManagedServices",
	string(catalog.LayerCustomerManaged): "LayerCustomerManaged",
}

var repoConst = map[string]string{
	string(catalog.RepoBase):     "RepoBase",
	string(catalog.RepoCluster):  "RepoCluster",
	string(catalog.RepoCustomer): "RepoCustomer",
}

var builtinConst = map[string]string{
	string(catalog.BuiltinRoot):            "BuiltinRoot",
	string(catalog.BuiltinAggregate):       "BuiltinAggregate",
	string(catalog.BuiltinSOPS):            "BuiltinSOPS",
	string(catalog.BuiltinCustomerManaged): "BuiltinCustomerManaged",
	string(catalog.BuiltinStandard):        "BuiltinStandard",
}

// Units emits units.go: the render table.
func Units(units []*check.Unit) ([]byte, error) {
	f := newFile()
	var entries []jen.Code
	var names []jen.Code
	for _, u := range units {
		entries = append(entries, unit(u))
		names = append(names, jen.Lit(u.Name))
	}
	f.Comment("Units is every overlay unit compiled from descriptors/, sorted by name.")
	f.Var().Id("Units").Op("=").Index().Qual(CatalogPkg, "Unit").Add(values(entries...))
	f.Line()
	f.Comment("UnitNames lists the names of Units, sorted.")
	f.Var().Id("UnitNames").Op("=").Index().String().Add(values(names...))
	return render(f)
}

func unit(u *check.Unit) jen.Code {
	fields := []jen.Code{
		jen.Id("Name").Op(":").Lit(u.Name),
		jen.Id("Layer").Op(":").Qual(CatalogPkg, layerConst[u.Layer]),
		jen.Id("Descriptor").Op(":").Lit(u.D.File),
	}
	add := func(name string, v jen.Code) { fields = append(fields, jen.Id(name).Op(":").Add(v)) }
	if u.Description != "" {
		add("Description", jen.Lit(u.Description))
	}
	if u.ServiceKey != "" {
		add("Service", jen.Lit(u.ServiceKey))
	}
	if u.Namespace != "" {
		add("Namespace", jen.Lit(u.Namespace))
	}
	if len(u.Gate) > 0 {
		add("Gate", cond(u.Gate))
	}
	if len(u.ActiveWith) > 0 {
		add("ActiveWith", strs(u.ActiveWith))
	}
	if len(u.Requires) > 0 {
		add("Requires", strs(u.Requires))
	}
	if len(u.Sources) > 0 {
		var ss []jen.Code
		for _, s := range u.Sources {
			sf := []jen.Code{jen.Id("Name").Op(":").Lit(s.Name), jen.Id("Repo").Op(":").Qual(CatalogPkg, repoConst[s.Repo])}
			if len(s.Include) > 0 {
				var inc []jen.Code
				for _, i := range s.Include {
					inc = append(inc, jen.Values(jen.Id("Source").Op(":").Lit(i.Source), jen.Id("From").Op(":").Lit(i.From), jen.Id("To").Op(":").Lit(i.To)))
				}
				sf = append(sf, jen.Id("Include").Op(":").Index().Qual(CatalogPkg, "Include").Values(inc...))
			}
			ss = append(ss, values(sf...))
		}
		add("Sources", jen.Index().Qual(CatalogPkg, "Source").Add(values(ss...)))
	}
	if len(u.FluxUnits) > 0 {
		var fs []jen.Code
		for _, fu := range u.FluxUnits {
			fs = append(fs, fluxUnit(fu))
		}
		add("FluxUnits", jen.Index().Qual(CatalogPkg, "FluxUnit").Add(values(fs...)))
	}
	if u.Root != "" {
		add("Root", jen.Lit(u.Root))
	}
	if len(u.Files) > 0 {
		var fs []jen.Code
		for _, f := range u.Files {
			full := f.Out
			if u.Root != "" {
				full = u.Root + "/" + f.Out
			}
			ff := []jen.Code{jen.Id("Path").Op(":").Lit(f.Out), jen.Id("OverlayPath").Op(":").Lit(full)}
			if f.Template != "" {
				ff = append(ff, jen.Id("Template").Op(":").Lit(f.Template))
			}
			if f.IsTemplate {
				ff = append(ff, jen.Id("IsTemplate").Op(":").True())
			}
			if f.Compiled != nil {
				ff = append(ff, jen.Id("Render").Op(":").Id(f.Compiled.Func))
			}
			if f.Builtin != "" {
				ff = append(ff, jen.Id("Builtin").Op(":").Qual(CatalogPkg, builtinConst[f.Builtin]))
			}
			if f.Secret {
				ff = append(ff, jen.Id("Secret").Op(":").True())
			}
			if f.When != nil {
				ff = append(ff, jen.Id("When").Op(":").Add(cond([]*check.Cond{f.When})))
			}
			fs = append(fs, values(ff...))
		}
		add("Files", jen.Index().Qual(CatalogPkg, "File").Add(values(fs...)))
	}
	if u.HelmRelease != "" {
		add("HelmRelease", jen.Lit(u.HelmRelease))
		add("ValuesSecret", jen.Lit(u.ValuesSecret))
	}
	if u.Releases != nil {
		add("Releases", strs(u.Releases))
	}
	if u.ServiceNode != nil {
		add("Common", commonFunc(u.ServiceNode))
	}
	if u.Sourced {
		add("Source", sourceFunc(u.ServiceNode))
	}
	if len(u.ExistingSecrets) > 0 || u.Provides {
		add("ExistingSecrets", existingSecretsFunc(u.ServiceNode, u.ExistingSecrets, u.Provides))
	}
	fields = append(fields, facts(u)...)
	return values(fields...)
}

func fluxUnit(fu check.FluxUnit) jen.Code {
	ff := []jen.Code{
		jen.Id("Name").Op(":").Lit(fu.Name),
		jen.Id("Source").Op(":").Lit(fu.Source),
		jen.Id("Path").Op(":").Lit(fu.Path),
	}
	if fu.TargetNamespace != "" {
		ff = append(ff, jen.Id("TargetNamespace").Op(":").Lit(fu.TargetNamespace))
	}
	if len(fu.DependsOn) > 0 {
		ff = append(ff, jen.Id("DependsOn").Op(":").Add(strs(fu.DependsOn)))
	}
	if fu.Wait {
		ff = append(ff, jen.Id("Wait").Op(":").True())
	}
	if len(fu.HealthChecks) > 0 {
		var hs []jen.Code
		for _, h := range fu.HealthChecks {
			hs = append(hs, jen.Values(
				jen.Id("APIVersion").Op(":").Lit(h.APIVersion),
				jen.Id("Kind").Op(":").Lit(h.Kind),
				jen.Id("Name").Op(":").Lit(h.Name),
				jen.Id("Namespace").Op(":").Lit(h.Namespace),
			))
		}
		ff = append(ff, jen.Id("HealthChecks").Op(":").Index().Qual(CatalogPkg, "HealthCheck").Values(hs...))
	}
	if fu.When != nil {
		ff = append(ff, jen.Id("When").Op(":").Add(cond([]*check.Cond{fu.When})))
	}
	if len(fu.Provides) > 0 {
		ff = append(ff, jen.Id("Provides").Op(":").Add(strs(fu.Provides)))
	}
	if len(fu.Needs) > 0 {
		ff = append(ff, jen.Id("Needs").Op(":").Add(strs(fu.Needs)))
	}
	if len(fu.Wants) > 0 {
		ff = append(ff, jen.Id("Wants").Op(":").Add(strs(fu.Wants)))
	}
	if len(fu.Only) > 0 {
		ff = append(ff, jen.Id("Only").Op(":").Add(strs(fu.Only)))
	}
	if fu.ReplaceCRDs {
		ff = append(ff, jen.Id("ReplaceCRDs").Op(":").True())
	}
	if len(fu.ValuesFrom) > 0 {
		var vs []jen.Code
		for _, v := range fu.ValuesFrom {
			var vf []jen.Code
			if v.Secret != "" {
				vf = append(vf, jen.Id("Secret").Op(":").Lit(v.Secret))
			}
			if v.Field != nil {
				vf = append(vf, jen.Id("SecretOf").Op(":").Add(stringFunc(v.Field)))
			}
			if v.When != nil {
				vf = append(vf, jen.Id("When").Op(":").Add(cond([]*check.Cond{v.When})))
			}
			vs = append(vs, values(vf...))
		}
		ff = append(ff, jen.Id("ValuesFrom").Op(":").Index().Qual(CatalogPkg, "ValuesFrom").Add(values(vs...)))
	}
	return values(ff...)
}

func cond(conds []*check.Cond) jen.Code {
	text := ""
	for i, k := range conds {
		if i > 0 {
			text += " and "
		}
		text += k.Text
	}
	return jen.Qual(CatalogPkg, "Cond").Add(values(jen.Id("Text").Op(":").Lit(text), jen.Id("Eval").Op(":").Add(condFunc(conds))))
}

// selector builds c.OpenCenter.Services.X from a node path of struct fields.
func selector(root string, path []string) *jen.Statement {
	s := jen.Id(root)
	for _, p := range path {
		s = s.Dot(p)
	}
	return s
}

func commonFunc(svc *model.Node) jen.Code {
	sel := svcSelector(svc)
	return jen.Func().Params(cfg()).Op("*").Qual(ConfigPkg, "ServiceCommon").Block(
		jen.If(jen.Id("s").Op(":=").Add(selector("c", sel)), jen.Id("s").Op("!=").Nil()).Block(
			jen.Return(jen.Op("&").Id("s").Dot("ServiceCommon")),
		),
		jen.Return(jen.Nil()),
	)
}

// sourceFunc returns the source override of a config.SourcedService.
func sourceFunc(svc *model.Node) jen.Code {
	return jen.Func().Params(cfg()).Op("*").Qual(ConfigPkg, "SourceOverride").Block(
		jen.If(jen.Id("s").Op(":=").Add(selector("c", svcSelector(svc))), jen.Id("s").Op("!=").Nil()).Block(
			jen.Return(jen.Id("s").Dot("SourceOverride").Call()),
		),
		jen.Return(jen.Nil()),
	)
}

// existingSecretsFunc returns what the service's *existing_secret fields
// hold, then, when provides, the Secrets its ProvidedSecrets names.
func existingSecretsFunc(svc *model.Node, fields []*model.Node, provides bool) jen.Code {
	vals := make([]jen.Code, len(fields))
	for i, f := range fields {
		vals[i] = asString(f, jen.Id("s").Dot(f.GoName))
	}
	ret := jen.Index().String().Values(vals...)
	switch {
	case provides && len(fields) == 0:
		ret = jen.Id("s").Dot("ProvidedSecrets").Call()
	case provides:
		ret = jen.Append(ret, jen.Id("s").Dot("ProvidedSecrets").Call().Op("..."))
	}
	return jen.Func().Params(cfg()).Index().String().Block(
		jen.If(jen.Id("s").Op(":=").Add(selector("c", svcSelector(svc))), jen.Id("s").Op("!=").Nil()).Block(
			jen.Return(ret),
		),
		jen.Return(jen.Nil()),
	)
}

// svcSelector returns the Go field names from the config root to n.
func svcSelector(n *model.Node) []string {
	var out []string
	for ; n != nil && n.GoName != ""; n = n.Parent {
		out = append([]string{n.GoName}, out...)
	}
	return out
}
