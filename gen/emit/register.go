package emit

import "github.com/dave/jennifer/jen"

// Register emits register.go: the init func that hands config's load the
// generated defaults and checks. config cannot import zz_generated
// (zz_generated imports config), so the generated package registers itself,
// as database/sql drivers do.
func Register() ([]byte, error) {
	f := newFile()
	f.Comment("init registers the catalog with config: its load applies ApplyDefaults,")
	f.Comment("checks every config with check (check.go), and finds the login pages in Units.")
	f.Func().Id("init").Params().Block(
		jen.Qual(ConfigPkg, "RegisterCatalog").Call(jen.Qual(ConfigPkg, "Catalog").Add(values(
			jen.Id("ApplyDefaults").Op(":").Id("ApplyDefaults"),
			jen.Id("Check").Op(":").Id("check"),
			jen.Id("LoginHostnames").Op(":").Func().Params(cfg()).Index().String().Block(
				jen.Return(jen.Qual(CatalogPkg, "LoginHostnames").Call(jen.Id("c"), jen.Id("Units"))),
			),
		))),
	)
	return render(f)
}
