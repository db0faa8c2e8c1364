package check

import (
	"errors"
	"fmt"
	"go/types"
	"io/fs"
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
	for _, u := range c.units {
		for i := range u.Files {
			if f := &u.Files[i]; f.IsTemplate {
				f.Secret = c.template(u, f.Template)
			}
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

// scope is what a template position sees: the type of dot and of each
// variable, and whether they derive from .Secrets (tainted): a file that
// prints a tainted value carries secret material.
type scope struct {
	dot      types.Type
	dotTaint bool
	vars     map[string]types.Type
	taint    map[string]bool
}

func (s *scope) with(dot types.Type, taint bool) *scope {
	n := &scope{dot: dot, dotTaint: taint, vars: make(map[string]types.Type, len(s.vars)), taint: make(map[string]bool, len(s.taint))}
	for k, v := range s.vars {
		n.vars[k] = v
	}
	for k, v := range s.taint {
		n.taint[k] = v
	}
	return n
}

var undefinedFunc = regexp.MustCompile(`^function "([^"]+)" not defined$`)

var parseErr = regexp.MustCompile(`^template: [^:]+:(\d+):(?:(\d+):)? ?(.*)$`)

func (c *checker) template(u *Unit, rel string) (secret bool) {
	file := c.in.Dir + "/files/" + rel
	text, err := c.in.ReadTemplate(rel)
	if err != nil {
		c.diags = append(c.diags, diag.Diag{File: file, Msg: "cannot read template: " + unwrapPath(err).Error()})
		return false
	}
	t, err := tmpl.Parse(rel, text)
	if err != nil {
		d := diag.Diag{File: file, Line: 1, Col: 1, Msg: err.Error()}
		if m := parseErr.FindStringSubmatch(err.Error()); m != nil {
			d.Line, _ = strconv.Atoi(m[1])
			d.Col, _ = strconv.Atoi(m[2])
			d.Msg = m[3]
			if f := undefinedFunc.FindStringSubmatch(d.Msg); f != nil {
				d.Msg += diag.Suggest(f[1], tmpl.Names())
			}
		}
		c.diags = append(c.diags, d)
		return false
	}
	tc := &tcheck{c: c, unit: u, file: file, text: text, root: types.NewStruct(nil, nil)}
	for _, sub := range t.Templates() {
		if sub.Tree != nil && sub.Tree.Root != nil {
			tc.list(sub.Tree.Root, &scope{dot: tc.root, vars: map[string]types.Type{"$": tc.root}, taint: map[string]bool{}})
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
			if _, taint := tc.pipe(n.Pipe, s); taint && len(n.Pipe.Decl) == 0 {
				tc.secret = true
			}
		case *parse.IfNode:
			inner := s.with(s.dot, s.dotTaint)
			tc.pipe(n.Pipe, inner)
			tc.list(n.List, inner)
			tc.list(n.ElseList, s.with(s.dot, s.dotTaint))
		case *parse.WithNode:
			inner := s.with(s.dot, s.dotTaint)
			t, taint := tc.pipe(n.Pipe, inner)
			inner.dot, inner.dotTaint = deref(t), taint
			tc.list(n.List, inner)
			tc.list(n.ElseList, s.with(s.dot, s.dotTaint))
		case *parse.RangeNode:
			inner := s.with(s.dot, s.dotTaint)
			t, taint := tc.pipeType(n.Pipe, inner)
			key, elem := rangeTypes(t)
			switch len(n.Pipe.Decl) {
			case 1:
				inner.vars[n.Pipe.Decl[0].Ident[0]] = elem
				inner.taint[n.Pipe.Decl[0].Ident[0]] = taint
			case 2:
				inner.vars[n.Pipe.Decl[0].Ident[0]] = key
				inner.vars[n.Pipe.Decl[1].Ident[0]] = elem
				inner.taint[n.Pipe.Decl[1].Ident[0]] = taint
			}
			inner.dot, inner.dotTaint = deref(elem), taint
			tc.list(n.List, inner)
			tc.list(n.ElseList, s.with(s.dot, s.dotTaint))
		case *parse.TemplateNode:
			tc.errorf(n, "{{template %q}}: overlay templates are single files; nested templates are not supported", n.Name)
		}
	}
}

// pipe checks a pipeline and declares its variables in s.
func (tc *tcheck) pipe(p *parse.PipeNode, s *scope) (types.Type, bool) {
	t, taint := tc.pipeType(p, s)
	for _, v := range p.Decl {
		s.vars[v.Ident[0]] = t
		s.taint[v.Ident[0]] = taint
	}
	return t, taint
}

// pipeType types a pipeline: its result type (nil when unknown) and whether
// any value in it derives from .Secrets.
func (tc *tcheck) pipeType(p *parse.PipeNode, s *scope) (types.Type, bool) {
	if p == nil {
		return nil, false
	}
	var t types.Type
	taint := false
	for _, cmd := range p.Cmds {
		var ct bool
		t, ct = tc.cmd(cmd, s)
		taint = taint || ct
	}
	if len(p.Cmds) != 1 {
		return nil, taint
	}
	return t, taint
}

func (tc *tcheck) cmd(c *parse.CommandNode, s *scope) (types.Type, bool) {
	var t types.Type
	taint := false
	for _, a := range c.Args {
		var at bool
		t, at = tc.arg(a, s)
		taint = taint || at
	}
	if len(c.Args) != 1 {
		return nil, taint // a function call: its result type is not tracked
	}
	return t, taint
}

func (tc *tcheck) arg(n parse.Node, s *scope) (types.Type, bool) {
	switch n := n.(type) {
	case *parse.FieldNode:
		taint := s.dotTaint || (s.dot == tc.root && n.Ident[0] == "Secrets")
		return tc.resolve(n, s.dot, n.Ident, "."), taint
	case *parse.VariableNode:
		base, ok := s.vars[n.Ident[0]]
		if !ok {
			return nil, false
		}
		taint := s.taint[n.Ident[0]] || (base == tc.root && len(n.Ident) > 1 && n.Ident[1] == "Secrets")
		return tc.resolve(n, base, n.Ident[1:], n.Ident[0]+"."), taint
	case *parse.ChainNode:
		t, taint := tc.arg(n.Node, s)
		return tc.resolve(n, t, n.Field, "(...)."), taint
	case *parse.DotNode:
		return s.dot, s.dotTaint
	case *parse.PipeNode:
		return tc.pipeType(n, s.with(s.dot, s.dotTaint))
	}
	return nil, false
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

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
