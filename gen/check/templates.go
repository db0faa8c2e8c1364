package check

import (
	"fmt"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template/parse"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/tmpl"
)

// templates type-checks every .tpl a unit owns against that unit's data:
// table.Data with .Service and .Secrets typed as the unit's service and
// secrets structs. It also marks files that read .Secrets as secret.
func (c *checker) templates() {
	checked := map[string]bool{}
	for _, u := range c.units {
		for i := range u.Files {
			f := &u.Files[i]
			if !f.IsTemplate {
				continue
			}
			owner := u
			if strings.HasPrefix(f.Template, StandardDir+"/") {
				if checked[f.Template] {
					continue
				}
				checked[f.Template] = true
				owner = nil // pattern templates see no service
			}
			f.Secret = c.template(owner, f.Template)
		}
	}
}

type tcheck struct {
	c      *checker
	unit   *Unit
	file   string
	text   string
	root   types.Type
	secret bool
}

type scope struct {
	dot  types.Type
	vars map[string]types.Type
}

func (s *scope) with(dot types.Type) *scope {
	vars := make(map[string]types.Type, len(s.vars))
	for k, v := range s.vars {
		vars[k] = v
	}
	return &scope{dot: dot, vars: vars}
}

var parseErr = regexp.MustCompile(`^template: [^:]+:(\d+):(?:(\d+):)? ?(.*)$`)

func (c *checker) template(u *Unit, rel string) (secret bool) {
	file := c.in.Dir + "/files/" + rel
	text, err := c.in.ReadTemplate(rel)
	if err != nil {
		c.diags = append(c.diags, diag.Diag{File: file, Msg: err.Error()})
		return false
	}
	t, err := tmpl.Parse(rel, text)
	if err != nil {
		d := diag.Diag{File: file, Line: 1, Col: 1, Msg: err.Error()}
		if m := parseErr.FindStringSubmatch(err.Error()); m != nil {
			d.Line, _ = strconv.Atoi(m[1])
			d.Col, _ = strconv.Atoi(m[2])
			d.Msg = m[3]
		}
		c.diags = append(c.diags, d)
		return false
	}
	tc := &tcheck{c: c, unit: u, file: file, text: text, root: types.NewStruct(nil, nil)}
	for _, sub := range t.Templates() {
		if sub.Tree != nil && sub.Tree.Root != nil {
			tc.list(sub.Tree.Root, &scope{dot: tc.root, vars: map[string]types.Type{"$": tc.root}})
		}
	}
	return tc.secret
}

func (tc *tcheck) errorf(n parse.Node, format string, args ...any) {
	off := int(n.Position())
	off = min(off, len(tc.text))
	line := 1 + strings.Count(tc.text[:off], "\n")
	col := off - strings.LastIndex(tc.text[:off], "\n")
	tc.c.diags = append(tc.c.diags, diag.Diag{File: tc.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (tc *tcheck) list(l *parse.ListNode, s *scope) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		switch n := n.(type) {
		case *parse.ActionNode:
			tc.pipe(n.Pipe, s)
		case *parse.IfNode:
			inner := s.with(s.dot)
			tc.pipe(n.Pipe, inner)
			tc.list(n.List, inner)
			tc.list(n.ElseList, s.with(s.dot))
		case *parse.WithNode:
			inner := s.with(s.dot)
			inner.dot = deref(tc.pipe(n.Pipe, inner))
			tc.list(n.List, inner)
			tc.list(n.ElseList, s.with(s.dot))
		case *parse.RangeNode:
			inner := s.with(s.dot)
			t := tc.pipeType(n.Pipe, inner)
			key, elem := rangeTypes(t)
			switch len(n.Pipe.Decl) {
			case 1:
				inner.vars[n.Pipe.Decl[0].Ident[0]] = elem
			case 2:
				inner.vars[n.Pipe.Decl[0].Ident[0]] = key
				inner.vars[n.Pipe.Decl[1].Ident[0]] = elem
			}
			inner.dot = deref(elem)
			tc.list(n.List, inner)
			tc.list(n.ElseList, s.with(s.dot))
		case *parse.TemplateNode:
			tc.errorf(n, "{{template %q}}: overlay templates are single files; nested templates are not supported", n.Name)
		}
	}
}

// pipe checks a pipeline and declares its variables in s.
func (tc *tcheck) pipe(p *parse.PipeNode, s *scope) types.Type {
	t := tc.pipeType(p, s)
	for _, v := range p.Decl {
		s.vars[v.Ident[0]] = t
	}
	return t
}

func (tc *tcheck) pipeType(p *parse.PipeNode, s *scope) types.Type {
	if p == nil {
		return nil
	}
	var t types.Type
	for _, cmd := range p.Cmds {
		t = tc.cmd(cmd, s)
	}
	if len(p.Cmds) != 1 {
		return nil
	}
	return t
}

func (tc *tcheck) cmd(c *parse.CommandNode, s *scope) types.Type {
	var t types.Type
	for _, a := range c.Args {
		t = tc.arg(a, s)
	}
	if len(c.Args) != 1 {
		return nil // a function call: its result is not tracked
	}
	return t
}

func (tc *tcheck) arg(n parse.Node, s *scope) types.Type {
	switch n := n.(type) {
	case *parse.FieldNode:
		return tc.resolve(n, s.dot, n.Ident, ".")
	case *parse.VariableNode:
		base, ok := s.vars[n.Ident[0]]
		if !ok {
			return nil
		}
		return tc.resolve(n, base, n.Ident[1:], n.Ident[0]+".")
	case *parse.ChainNode:
		return tc.resolve(n, tc.arg(n.Node, s), n.Field, "(...).")
	case *parse.DotNode:
		return s.dot
	case *parse.PipeNode:
		return tc.pipeType(n, s.with(s.dot))
	}
	return nil
}

// resolve follows a field chain from t; nil means "not known statically".
func (tc *tcheck) resolve(n parse.Node, t types.Type, chain []string, prefix string) types.Type {
	walked := strings.TrimSuffix(prefix, ".")
	for _, name := range chain {
		if t == nil {
			return nil
		}
		var err string
		t, err = tc.field(t, name)
		if err != "" {
			tc.errorf(n, "%s.%s: %s", walked, name, err)
			return nil
		}
		walked += "." + name
	}
	return t
}

// field returns the type of t.name.
func (tc *tcheck) field(t types.Type, name string) (types.Type, string) {
	if t == tc.root {
		return tc.rootField(name)
	}
	t = deref(t)
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return nil, ""
	case *types.Map:
		if b, ok := u.Key().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return u.Elem(), ""
		}
	case *types.Struct:
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		switch o := obj.(type) {
		case *types.Var:
			return o.Type(), ""
		case *types.Func:
			sig := o.Type().(*types.Signature)
			if sig.Results().Len() == 0 {
				return nil, "method returns nothing"
			}
			return sig.Results().At(0).Type(), ""
		}
		names := fieldNames(u)
		return nil, fmt.Sprintf("%s has no field %s%s", typeName(t), name, diag.Suggest(name, names))
	}
	return nil, fmt.Sprintf("%s has no fields (it is a %s)", typeName(t), typeName(t.Underlying()))
}

// rootField types the fields of table.Data for this unit.
func (tc *tcheck) rootField(name string) (types.Type, string) {
	data := tc.c.in.Model.Table.Scope().Lookup("Data").Type().Underlying().(*types.Struct)
	switch name {
	case "Service":
		if tc.unit == nil || tc.unit.ServiceNode == nil {
			return nil, "this template's unit has no service"
		}
		return tc.unit.ServiceNode.Type, ""
	case "Secrets":
		tc.secret = true
		if tc.unit == nil || tc.unit.SecretsNode == nil {
			return nil, "this template's unit has no secrets type"
		}
		return tc.unit.SecretsNode.Type, ""
	}
	for i := range data.NumFields() {
		if f := data.Field(i); f.Name() == name {
			return f.Type(), ""
		}
	}
	return nil, fmt.Sprintf("template data has no field %s%s", name, diag.Suggest(name, fieldNames(data)))
}

func fieldNames(s *types.Struct) []string {
	var out []string
	for i := range s.NumFields() {
		f := s.Field(i)
		if f.Embedded() {
			if st, ok := deref(f.Type()).Underlying().(*types.Struct); ok {
				out = append(out, fieldNames(st)...)
			}
			continue
		}
		out = append(out, f.Name())
	}
	slices.Sort(out)
	return out
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func rangeTypes(t types.Type) (key, elem types.Type) {
	if t == nil {
		return nil, nil
	}
	switch u := deref(t).Underlying().(type) {
	case *types.Slice:
		return types.Typ[types.Int], u.Elem()
	case *types.Map:
		return u.Key(), u.Elem()
	}
	return nil, nil
}

func typeName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
