package emit

import (
	"maps"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/descriptor"
)

// facts are the fields of a unit's table entry that carry what its
// descriptor says of its charts, Services, logins and examples.
func facts(u *check.Unit) []jen.Code {
	var fields []jen.Code
	add := func(name string, v jen.Code) { fields = append(fields, jen.Id(name).Op(":").Add(v)) }
	if len(u.Charts) > 0 {
		var cs []jen.Code
		for _, k := range u.Charts {
			cs = append(cs, chart(k))
		}
		add("Charts", jen.Index().Qual(CatalogPkg, "Chart").Add(values(cs...)))
	}
	if len(u.D.Services) > 0 {
		var ss []jen.Code
		for _, s := range u.D.Services {
			ss = append(ss, fieldsOf(
				"Chart", s.Chart, "Kind", s.Kind, "Fullname", s.Fullname, "Max", s.Max,
				"Fixed", s.Fixed, "Suffix", s.Suffix, "Port", s.Port, "Read", s.Read))
		}
		add("Services", jen.Index().Qual(CatalogPkg, "ServiceMaker").Add(values(ss...)))
	}
	if len(u.Logins) > 0 {
		var ls []jen.Code
		for _, l := range u.Logins {
			lf := []jen.Code{
				jen.Id("Hostname").Op(":").Lit(l.Hostname.Chain[len(l.Hostname.Chain)-1].Path),
				jen.Id("Get").Op(":").Add(stringOf(l.Hostname)),
			}
			if l.When != nil || l.Method != "" {
				lf = append(lf, jen.Id("When").Op(":").Add(loginWhen(u, l)))
			}
			ls = append(ls, values(lf...))
		}
		add("Logins", jen.Index().Qual(CatalogPkg, "Login").Add(values(ls...)))
	}
	if len(u.D.Examples) > 0 {
		var es []jen.Code
		for _, e := range u.D.Examples {
			config := e.Config
			if config == "" {
				config = "dev"
			}
			ef := []jen.Code{jen.Id("Name").Op(":").Lit(e.Name), jen.Id("Config").Op(":").Lit(config)}
			if len(e.Set) > 0 {
				var kv []jen.Code
				for _, k := range sortedKeys(e.Set) {
					kv = append(kv, jen.Lit(k).Op(":").Lit(e.Set[k]))
				}
				ef = append(ef, jen.Id("Set").Op(":").Map(jen.String()).String().Add(values(kv...)))
			}
			if len(e.Bools) > 0 {
				var kv []jen.Code
				for _, k := range sortedKeys(e.Bools) {
					kv = append(kv, jen.Lit(k).Op(":").Lit(e.Bools[k]))
				}
				ef = append(ef, jen.Id("Bools").Op(":").Map(jen.String()).Bool().Add(values(kv...)))
			}
			if len(e.Drop) > 0 {
				ef = append(ef, jen.Id("Drop").Op(":").Add(strs(e.Drop)))
			}
			es = append(es, values(ef...))
		}
		add("Examples", jen.Index().Qual(CatalogPkg, "Example").Add(values(es...)))
	}
	return fields
}

func chart(k check.Chart) jen.Code {
	cf := []jen.Code{
		jen.Id("Chart").Op(":").Lit(k.Chart.Chart),
		jen.Id("Version").Op(":").Lit(k.Version),
		jen.Id("HelmRelease").Op(":").Lit(k.HelmRelease),
		jen.Id("Values").Op(":").Lit(k.Values),
		jen.Id("Read").Op(":").Lit(k.Read),
	}
	add := func(name string, v jen.Code) { cf = append(cf, jen.Id(name).Op(":").Add(v)) }
	list := func(name string, ss []string) {
		if len(ss) > 0 {
			add(name, strs(ss))
		}
	}
	list("Reads", k.Reads)
	if len(k.Gates) > 0 {
		var gs []jen.Code
		for _, g := range k.Gates {
			gs = append(gs, fieldsOf("Under", g.Under, "Gate", g.Gate, "Open", g.Open, "Base", g.Base, "Read", g.Read))
		}
		add("Gates", jen.Index().Qual(CatalogPkg, "ChartGate").Add(values(gs...)))
	}
	if len(k.Required) > 0 {
		var rs []jen.Code
		for _, r := range k.Required {
			rs = append(rs, fieldsOf("Path", r.Path, "Read", r.Read))
		}
		add("Required", jen.Index().Qual(CatalogPkg, "ChartRequired").Add(values(rs...)))
	}
	list("Templated", k.Templated)
	if len(k.Unquoted) > 0 {
		var us []jen.Code
		for _, q := range k.Unquoted {
			us = append(us, fieldsOf("Path", q.Path, "If", q.If, "Equals", q.Equals))
		}
		add("Unquoted", jen.Index().Qual(CatalogPkg, "ChartUnquoted").Add(values(us...)))
	}
	list("EnvExpanded", k.EnvExpanded)
	if cr := k.CRDs; cr != nil {
		crf := []jen.Code{jen.Id("In").Op(":").Lit(cr.In)}
		if cr.At != "" {
			crf = append(crf, jen.Id("At").Op(":").Lit(cr.At))
		}
		if cr.UpgradedBy != "" {
			crf = append(crf, jen.Id("UpgradedBy").Op(":").Lit(cr.UpgradedBy))
		}
		if len(k.Schemas) > 0 {
			var ss []jen.Code
			for _, s := range k.Schemas {
				ss = append(ss, chartSchema(s))
			}
			crf = append(crf, jen.Id("Schemas").Op(":").Index().Qual(CatalogPkg, "Schema").Add(values(ss...)))
		}
		add("CRDs", jen.Op("&").Qual(CatalogPkg, "ChartCRDs").Add(values(crf...)))
	}
	if k.ValuesSchema != nil {
		add("ValuesSchema", jen.Op("&").Qual(CatalogPkg, "Schema").Add(chartSchema(*k.ValuesSchema)))
	}
	if len(k.Budgets) > 0 {
		var bs []jen.Code
		for _, b := range k.Budgets {
			bs = append(bs, fieldsOf("Workload", b.Workload, "Replicas", b.Replicas,
				"Autoscaling", b.Autoscaling, "AutoscalingBase", b.AutoscalingBase, "MinReplicas", b.MinReplicas,
				"Enabled", b.Enabled, "EnabledBase", b.EnabledBase,
				"MinAvailable", b.MinAvailable, "MinAvailableBase", b.MinAvailableBase, "MaxUnavailable", b.MaxUnavailable,
				"Quorum", b.Quorum, "Read", b.Read))
		}
		add("Budgets", jen.Index().Qual(CatalogPkg, "Budget").Add(values(bs...)))
	}
	if len(k.Accepts) > 0 {
		var as []jen.Code
		for _, a := range k.Accepts {
			as = append(as, values(
				jen.Id("Field").Op(":").Lit(a.Accept.Field),
				jen.Id("Get").Op(":").Add(stringOf(a.Field)),
				jen.Id("Values").Op(":").Add(strs(a.Values)),
				jen.Id("What").Op(":").Lit(a.What),
				jen.Id("Read").Op(":").Lit(a.Read),
			))
		}
		add("Accepts", jen.Index().Qual(CatalogPkg, "Accept").Add(values(as...)))
	}
	return values(cf...)
}

func chartSchema(s descriptor.Schema) jen.Code {
	return fieldsOf("Module", s.Module, "Version", s.Version, "File", s.File)
}

// fieldsOf is a composite literal of the name/value pairs whose value is
// not its type's zero, one per line.
func fieldsOf(pairs ...any) *jen.Statement {
	var fs []jen.Code
	for i := 0; i+1 < len(pairs); i += 2 {
		switch v := pairs[i+1].(type) {
		case string:
			if v == "" {
				continue
			}
		case int:
			if v == 0 {
				continue
			}
		case bool:
			if !v {
				continue
			}
		}
		fs = append(fs, jen.Id(pairs[i].(string)).Op(":").Lit(pairs[i+1]))
	}
	return values(fs...)
}

// stringOf compiles the string field k names into func(c *config.Config)
// string, "" when a pointer on the way is nil; a named string type is
// converted.
func stringOf(k *check.Cond) jen.Code {
	stmts, x := walkChain(k.Chain, k.Keys, "", jen.Lit(""))
	stmts = append(stmts, jen.Return(jen.String().Call(x())))
	return jen.Func().Params(cfg()).String().Block(stmts...)
}

// loginWhen compiles a login's condition and method into a catalog.Cond.
func loginWhen(u *check.Unit, l check.Login) jen.Code {
	var body []jen.Code
	text := ""
	if l.When != nil {
		stmts, x := walkChain(l.When.Chain, l.When.Keys, "0", jen.False())
		body = append(body, stmts...)
		body = append(body, jen.If(jen.Op("!").Parens(leafTest(l.When, x, l.When.Chain[len(l.When.Chain)-1]))).Block(jen.Return(jen.False())))
		text = l.When.Text
	}
	if l.Method != "" {
		svc := selector("c", svcSelector(u.ServiceNode))
		body = append(body,
			jen.Id("s").Op(":=").Add(svc),
			jen.Return(jen.Id("s").Op("!=").Nil().Op("&&").Id("s").Dot(l.Method).Call()))
		if text != "" {
			text += " and "
		}
		text += u.ServiceNode.Path + "." + l.Method + "() is true"
	} else {
		body = append(body, jen.Return(jen.True()))
	}
	return jen.Qual(CatalogPkg, "Cond").Add(values(
		jen.Id("Text").Op(":").Lit(text),
		jen.Id("Eval").Op(":").Func().Params(cfg()).Bool().Block(body...),
	))
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
