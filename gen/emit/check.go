package emit

import (
	"errors"
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// Check emits check.go: the checks of config's load that the descriptors
// and the tags of the config types compile to, as typed, straight-line Go
// that reads each field where it is declared. register.go hands check to
// config.
func Check(cat *check.Catalog) ([]byte, error) {
	var errs []error
	formats := walkFields(cat.Model.Root, scope{}, "", func(n *model.Node, sc scope, idx string) []jen.Code {
		code, err := formatCheck(cat.Model, n, sc, idx)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", n.Path, err))
		}
		return code
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var required []jen.Code
	var visit func(n *model.Node)
	visit = func(n *model.Node) {
		if r := cat.Requirement(n); r != nil {
			required = append(required, jen.Comment(n.Path), requirement(n, r))
		}
		if n.Elem != nil {
			visit(n.Elem)
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(cat.Model.Root)
	enums := walkFields(cat.Model.Root, scope{}, "", func(n *model.Node, sc scope, idx string) []jen.Code {
		if len(n.Enum) == 0 || idx != "" {
			return nil // enumerations inside lists are their service's Validate's
		}
		return guardLeaf(n, sc, func(x *jen.Statement) jen.Code {
			return jen.Qual(CatalogPkg, "Enum").Call(append([]jen.Code{jen.Id("v"), jen.Lit(n.Path), jen.String().Call(x)}, lits(n.Enum)...)...)
		})
	}, noLists)

	f := newFile()
	f.Comment("check is the catalog's check of config's load: it reports through v what the")
	f.Comment("descriptors and the config types' tags find wrong in c, a config whose defaults")
	f.Comment("are applied and whose contract rules are checked.")
	f.Func().Id("check").Params(validator(), cfg()).Block(
		jen.Id("checkServices").Call(jen.Id("v"), jen.Id("c")),
		jen.Id("checkRequired").Call(jen.Id("v"), jen.Id("c")),
		jen.Id("checkEnums").Call(jen.Id("v"), jen.Id("c")),
		jen.Id("checkFormats").Call(jen.Id("v"), jen.Id("c")),
	)
	f.Line()
	f.Comment("checkServices checks the namespace and the source override of every service")
	f.Comment("present, and runs the Validate method of every enabled service that has one.")
	f.Func().Id("checkServices").Params(validator(), cfg()).Block(services(cat.Units)...)
	f.Line()
	f.Comment("checkRequired reports every field that its required_when tag requires and that")
	f.Comment("is not set. A key missing from the file is placed at its mapping, or when that")
	f.Comment("is missing too at the field that made it required.")
	f.Func().Id("checkRequired").Params(validator(), cfg()).Block(required...)
	f.Line()
	f.Comment("checkEnums reports every enumeration field holding a value outside its")
	f.Comment("constants (the decoder accepts any string).")
	f.Func().Id("checkEnums").Params(validator(), cfg()).Block(enums...)
	f.Line()
	f.Comment("checkFormats reports every string not in the format its field's tag names: of")
	f.Comment("a field, of the elements of a list, of a list of strings, and the keys and")
	f.Comment("values of a map of strings. Secrets are left alone.")
	f.Func().Id("checkFormats").Params(validator(), cfg()).Block(
		append([]jen.Code{jen.Id("f").Op(":=").Qual(CatalogPkg, "NewFormats").Call(jen.Id("v"))}, formats...)...,
	)
	return render(f)
}

func validator() *jen.Statement { return jen.Id("v").Op("*").Qual(ConfigPkg, "Validator") }

func lits(ss []string) []jen.Code {
	out := make([]jen.Code, len(ss))
	for i, s := range ss {
		out[i] = jen.Lit(s)
	}
	return out
}

// scope names the variables that hold nodes of the config in generated
// code: a node's expression starts at the nearest node above it held by a
// variable, else at the config c.
type scope map[*model.Node]string

// with returns sc with n held by the variable name.
func (sc scope) with(n *model.Node, name string) scope {
	out := scope{n: name}
	for k, v := range sc {
		out[k] = v
	}
	return out
}

// expr is the Go expression of n.
func (sc scope) expr(n *model.Node) *jen.Statement {
	var names []string
	for ; sc[n] == "" && n.Parent != nil; n = n.Parent {
		if n.GoName == "" {
			panic(fmt.Sprintf("%s: an element is read outside its loop", n.Path))
		}
		names = append(names, n.GoName)
	}
	s := jen.Id("c")
	if sc[n] != "" {
		s = jen.Id(sc[n])
	}
	for i := len(names) - 1; i >= 0; i-- {
		s = s.Dot(names[i])
	}
	return s
}

// pointerVar names the variable holding the next pointer to a struct.
func (sc scope) pointerVar() string {
	n := 0
	for _, v := range sc {
		if strings.HasPrefix(v, "s") {
			n++
		}
	}
	if n == 0 {
		return "s"
	}
	return "s" + strconv.Itoa(n+1)
}

// fieldVisit returns the statements that check field n, whose expression
// sc gives; idx is the variable of the index of the list element n is in,
// "" outside lists.
type fieldVisit func(n *model.Node, sc scope, idx string) []jen.Code

// noLists keeps walkFields out of lists.
const noLists = true

// walkFields returns the statements visit gives for every field under n,
// in declaration order: those below a pointer to a struct inside a nil
// check of it, held by a variable; those in the elements of a list of
// objects (not itself in a list) inside a loop over them, unless skipLists;
// nothing inside maps.
func walkFields(n *model.Node, sc scope, idx string, visit fieldVisit, skipLists ...bool) []jen.Code {
	var out []jen.Code
	for _, ch := range n.Children {
		out = append(out, visit(ch, sc, idx)...)
		switch {
		case ch.Kind == catalog.KindObject && ch.Ptr:
			v := sc.pointerVar()
			if inner := walkFields(ch, sc.with(ch, v), idx, visit, skipLists...); len(inner) > 0 {
				out = append(out, jen.If(jen.Id(v).Op(":=").Add(sc.expr(ch)), jen.Id(v).Op("!=").Nil()).Block(inner...))
			}
		case ch.Kind == catalog.KindObject:
			out = append(out, walkFields(ch, sc, idx, visit, skipLists...)...)
		case ch.Kind == catalog.KindList && ch.Elem.Kind == catalog.KindObject && idx == "" && len(skipLists) == 0:
			inner := walkFields(ch.Elem, sc.with(ch.Elem, "e"), "i", visit)
			if len(inner) == 0 {
				continue
			}
			if ch.Elem.Ptr {
				inner = []jen.Code{jen.If(jen.Id("e").Op("!=").Nil()).Block(inner...)}
			}
			list := sc.expr(ch)
			if ch.Ptr {
				list = jen.Op("*").Add(sc.expr(ch))
			}
			loop := jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(list)).Block(inner...)
			if ch.Ptr {
				loop = jen.If(sc.expr(ch).Op("!=").Nil()).Block(loop)
			}
			out = append(out, loop)
		}
	}
	return out
}

// guardLeaf is use(x) for the value x of the scalar field n, inside a nil
// check of the pointers between n's variable and n, n included.
func guardLeaf(n *model.Node, sc scope, use func(x *jen.Statement) jen.Code) []jen.Code {
	var ptrs []*model.Node
	for p := n; p != nil && sc[p] == ""; p = p.Parent {
		if p.Ptr {
			ptrs = append([]*model.Node{p}, ptrs...)
		}
	}
	x := sc.expr(n)
	if n.Ptr {
		x = jen.Op("*").Add(x)
	}
	if len(ptrs) == 0 {
		return []jen.Code{use(x)}
	}
	return []jen.Code{jen.If(and(nonNil(ptrs, sc)...)).Block(use(x))}
}

func nonNil(ptrs []*model.Node, sc scope) []jen.Code {
	out := make([]jen.Code, len(ptrs))
	for i, p := range ptrs {
		out[i] = sc.expr(p).Op("!=").Nil()
	}
	return out
}

// and joins conditions with &&.
func and(conds ...jen.Code) *jen.Statement {
	s := jen.Add(conds[0])
	for _, c := range conds[1:] {
		s = s.Op("&&").Add(c)
	}
	return s
}

// formatCheck is the check of field n's format tags, nil for a field
// without one, a secret (never printed, so never checked) or a field
// in a map.
func formatCheck(m *model.Model, n *model.Node, sc scope, idx string) ([]jen.Code, error) {
	if n.Format == "" && n.KeyFormat == "" || n.Secret || strings.Contains(n.Path, ".*") {
		return nil, nil
	}
	switch {
	case n.Kind == catalog.KindString && idx != "":
		return guardLeaf(n, sc, func(x *jen.Statement) jen.Code {
			return jen.Id("f").Dot("Item").Call(jen.Lit(n.Path), jen.Id(idx), jen.Lit(n.Format), asString(n, x))
		}), nil
	case n.Kind == catalog.KindString:
		return guardLeaf(n, sc, func(x *jen.Statement) jen.Code {
			return jen.Id("f").Dot("String").Call(jen.Lit(n.Path), jen.Lit(n.Format), asString(n, x))
		}), nil
	case idx != "":
		return nil, errors.New("a format inside a list's elements is checked only on a string field")
	case n.Kind == catalog.KindList && !n.Ptr && types.Identical(n.Type.Underlying(), types.NewSlice(types.Typ[types.String])):
		return guardLeaf(n, sc, func(x *jen.Statement) jen.Code {
			return jen.Id("f").Dot("List").Call(jen.Lit(n.Path), jen.Lit(n.Format), x)
		}), nil
	case n.Kind == catalog.KindMap && !n.Ptr && types.Identical(n.Type.Underlying(), types.NewMap(types.Typ[types.String], types.Typ[types.String])):
		return guardLeaf(n, sc, func(x *jen.Statement) jen.Code {
			return jen.Id("f").Dot("Map").Call(jen.Lit(n.Path), jen.Lit(n.KeyFormat), jen.Lit(n.Format), x)
		}), nil
	}
	return nil, fmt.Errorf("a format is checked on a string, a []string or a map[string]string, not %s", m.GoTypeString(n.Type))
}

// asString is x, the value of a string field, as a string: a named string
// type (an enumeration) converted.
func asString(n *model.Node, x *jen.Statement) *jen.Statement {
	t := n.Type
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if types.Identical(t, types.Typ[types.String]) {
		return x
	}
	return jen.String().Call(x)
}

// services is checkServices's body: for every unit's service, in unit order.
func services(units []*check.Unit) []jen.Code {
	var out []jen.Code
	for _, u := range units {
		if u.ServiceNode == nil {
			continue
		}
		p := jen.Lit(u.ServiceNode.Path)
		body := []jen.Code{jen.Id("v").Dot("DNSLabelAt").Call(p, jen.Lit("namespace"), jen.Id("s").Dot("Namespace"))}
		if u.Sourced {
			body = append(body, jen.Id("v").Dot("SourceOverride").Call(p, jen.Id("s").Dot("SourceOverride").Call()))
		}
		if u.Validates {
			on := jen.Id("s").Dot("Enabled")
			if hasExternal(u.ServiceNode) {
				on = on.Op("&&").Op("!").Id("s").Dot("External").Call()
			}
			body = append(body, jen.If(on).Block(
				jen.Id("s").Dot("Validate").Call(jen.Id("v"), p, jen.Id("c")),
			))
		}
		out = append(out, jen.If(jen.Id("s").Op(":=").Add(scope{}.expr(u.ServiceNode)), jen.Id("s").Op("!=").Nil()).Block(body...))
	}
	return out
}

// hasExternal reports whether n is a service whose adoption_mode can say
// it is installed outside opencenter (config.ServiceCommon's External).
func hasExternal(n *model.Node) bool {
	if n == nil || n.Type == nil {
		return false
	}
	t := n.Type
	if _, ok := t.(*types.Pointer); !ok {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "External")
	_, ok := obj.(*types.Func)
	return ok
}

// requirement compiles the required_when of field n: when the scope is
// present, its gate on and every term holds, a field not set is reported
// (at each element of a list for a field inside one). Nil pointers on the
// way to the scope make the requirement void; on the way to the field they
// make it missing.
func requirement(n *model.Node, r *model.Requirement) jen.Code {
	outer, elem := r.Scope, (*model.Node)(nil)
	for i, s := range r.Scope {
		if s.Kind == catalog.KindList {
			outer, elem = r.Scope[:i+1], s.Elem
			break
		}
	}
	sc := scope{}
	var init jen.Code
	var conds, inner []jen.Code
	var ptrs []*model.Node
	for _, s := range outer {
		if s.Ptr {
			ptrs = append(ptrs, s)
		}
	}
	if len(ptrs) == 1 && ptrs[0].Kind == catalog.KindObject {
		init = jen.Id("s").Op(":=").Add(sc.expr(ptrs[0]))
		sc = sc.with(ptrs[0], "s")
		conds = append(conds, jen.Id("s").Op("!=").Nil())
	} else {
		conds = append(conds, nonNil(ptrs, sc)...)
	}
	guarded := map[*model.Node]bool{}
	for _, s := range r.Scope {
		guarded[s] = true
	}
	if elem != nil {
		sc = sc.with(elem, "e")
	}
	add := func(onElem bool, x jen.Code) {
		if onElem {
			inner = append(inner, x)
		} else {
			conds = append(conds, x)
		}
	}
	if r.Gate != nil {
		onElem := elem != nil && r.Gate.Parent == elem
		add(onElem, termHolds(model.Term{Node: r.Gate, Op: model.TermTrue}, sc))
		if hasExternal(r.Gate.Parent) {
			// A service installed outside opencenter renders nothing: none of
			// its fields, nor its secrets, is required.
			add(onElem, jen.Op("!").Add(sc.expr(r.Gate.Parent)).Dot("External").Call())
		}
	}
	for _, t := range r.Terms {
		if t.Chain != nil {
			// Outside the scope: a nil pointer on the way fails the term.
			for _, p := range t.Chain[:len(t.Chain)-1] {
				if p.Ptr && sc[p] == "" {
					add(false, sc.expr(p).Op("!=").Nil())
				}
			}
		}
		add(elem != nil && t.Chain == nil && t.Node.Parent == elem, termHolds(t, sc))
	}

	leaf := r.Target[len(r.Target)-1]
	by := ""
	if elem == nil && r.By != nil {
		by = r.By.Path
	}
	path := jen.Lit(leaf.Path)
	if elem != nil {
		rest := leaf.Path[len(elem.Path):]
		path = jen.Lit(elem.Path[:len(elem.Path)-2]+"[").Op("+").Qual("strconv", "Itoa").Call(jen.Id("i")).Op("+").Lit("]" + rest)
	}
	report := jen.Id("v").Dot("ErrorfMissing").Call(jen.Lit(by), path, jen.Lit("%s"), jen.Lit(missingMessage(leaf, r)))

	// Pointers on the way to the field that the scope does not guard.
	var missing []*model.Node
	for _, p := range r.Target[:len(r.Target)-1] {
		if p.Ptr && !guarded[p] {
			missing = append(missing, p)
		}
	}
	var body jen.Code
	if len(missing) == 1 && missing[0] == leaf.Parent && missing[0].Kind == catalog.KindObject {
		// A secret: its struct is held by t.
		t := sc.with(missing[0], "t")
		body = jen.If(jen.Id("t").Op(":=").Add(sc.expr(missing[0])), jen.Id("t").Op("==").Nil().Op("||").Add(unset(leaf, t.expr(leaf)))).Block(report)
	} else {
		test := unset(leaf, sc.expr(leaf))
		if len(missing) > 0 {
			test = jen.Parens(jen.Add(nilAny(missing, sc)).Op("||").Add(test))
		}
		if elem != nil {
			body = jen.If(and(append(inner, test)...)).Block(report)
		} else {
			conds = append(conds, test)
			body = report
		}
	}
	if elem != nil {
		body = jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(sc.expr(outer[len(outer)-1]))).Block(body)
	}
	switch {
	case len(conds) == 0:
		return body
	case init != nil:
		return jen.If(init, and(conds...)).Block(body)
	}
	return jen.If(and(conds...)).Block(body)
}

// nilAny is the Go test that one of ptrs is nil.
func nilAny(ptrs []*model.Node, sc scope) *jen.Statement {
	s := sc.expr(ptrs[0]).Op("==").Nil()
	for _, p := range ptrs[1:] {
		s = s.Op("||").Add(sc.expr(p).Op("==").Nil())
	}
	return s
}

// termHolds is the Go test that a requirement term holds.
func termHolds(t model.Term, sc scope) *jen.Statement {
	n := t.Node
	x := func() *jen.Statement { return sc.expr(n) }
	switch t.Op {
	case model.TermTrue:
		if n.Ptr {
			return x().Op("!=").Nil().Op("&&").Op("*").Add(x())
		}
		return x()
	case model.TermUnset:
		return unset(n, x())
	case model.TermSet: // a non-pointer string: check.Requirements
		return x().Op("!=").Lit("")
	}
	v := x
	if n.Ptr {
		v = func() *jen.Statement { return jen.Op("*").Add(x()) }
	}
	var or *jen.Statement
	for _, val := range t.Values {
		var lit jen.Code = jen.Lit(val)
		if n.Kind == catalog.KindInt {
			i, _ := strconv.Atoi(val)
			lit = jen.Lit(i)
		}
		eq := v().Op("==").Add(lit)
		if or == nil {
			or = eq
		} else {
			or = or.Op("||").Add(eq)
		}
	}
	if len(t.Values) > 1 {
		or = jen.Parens(or)
	}
	if n.Ptr {
		return x().Op("!=").Nil().Op("&&").Add(or)
	}
	return or
}

// unset is the Go test that the field expression x is not set.
func unset(n *model.Node, x *jen.Statement) *jen.Statement {
	switch {
	case n.Ptr:
		return x.Op("==").Nil()
	case n.Kind == catalog.KindString:
		return x.Op("==").Lit("")
	case n.Kind == catalog.KindInt || n.Kind == catalog.KindNumber:
		return x.Op("==").Lit(0)
	}
	return jen.Len(x).Op("==").Lit(0)
}

// missingMessage is what the load says of a required field not set:
// "required when <r.Text>", and what the field holds, from the first
// clause of its doc with the key and its verb dropped ("bucket is the
// bucket of log chunks." -> "the bucket of log chunks").
func missingMessage(n *model.Node, r *model.Requirement) string {
	doc := n.Doc
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	if i := strings.Index(doc, "; "); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSuffix(doc, ".")
	if rest, ok := strings.CutPrefix(doc, n.JSON+" "); ok {
		doc = rest
		for _, verb := range []string{"is ", "are ", "names "} {
			if r, ok := strings.CutPrefix(rest, verb); ok {
				doc = r
				break
			}
		}
	}
	if doc == "" {
		return "required when " + r.Text
	}
	return "required when " + r.Text + ": " + doc
}
