package check

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Requirements resolves every `required_when` struct tag of the config
// types into model.Requirement, keyed by the node that carries it. A tag is a
// comma-separated list of terms, all of which must hold, on fields of the
// scope (the field's struct; for a secret, the config part it belongs to):
//
//	enabled              a bool field is true
//	hostname             a string field is set
//	storage=s3|swift     a field is one of the values
//	!existing_secret     a field is not set
//	opencenter.services.gateway.enabled
//	                     a bool elsewhere in the config is true
//
// The enabled field of the scope's service or unit always gates the
// requirement. Problems are reported at the field's declaration, relative to
// root.
func Requirements(m *model.Model, root string) (map[*model.Node]*model.Requirement, error) {
	reqs := map[*model.Node]*model.Requirement{}
	var diags diag.List
	var visit func(n *model.Node, chain []*model.Node)
	visit = func(n *model.Node, chain []*model.Node) {
		if n.RequiredWhen != "" {
			r, err := resolve(m, n, chain)
			if err != "" {
				diags = append(diags, diag.Diag{File: rel(root, n.Pos.Filename), Line: n.Pos.Line, Col: n.Pos.Column, Path: n.Path, Msg: "required_when " + strconv.Quote(n.RequiredWhen) + ": " + err})
			} else {
				reqs[n] = r
			}
		}
		if n.Elem != nil {
			elem := append(chain[:len(chain):len(chain)], n.Elem)
			for _, c := range n.Elem.Children {
				visit(c, append(elem[:len(elem):len(elem)], c))
			}
			return
		}
		for _, c := range n.Children {
			visit(c, append(chain[:len(chain):len(chain)], c))
		}
	}
	visit(m.Root, nil)
	return reqs, diags.Err()
}

func rel(root, file string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if r, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return file
}

// secretScopes maps the part of secrets: a secret belongs to onto the part
// of the config it is the secret of.
var secretScopes = map[string]string{
	"secrets.services":         "opencenter.services",
	"secrets.managed_services": "opencenter.managed_services",
	"secrets.overlay_units":    "opencenter.gitops.overlay_units",
}

// resolve resolves the tag of n, whose chain from the root is chain; it
// returns what is wrong, or "".
func resolve(m *model.Model, n *model.Node, chain []*model.Node) (*model.Requirement, string) {
	switch {
	case n.Required:
		return nil, "the key is required anyway (no omitempty): drop the tag or add omitempty"
	case n.Kind == catalog.KindBool:
		return nil, "a bool cannot be required: it is always set (false when omitted)"
	case n.Kind == catalog.KindObject && !n.Ptr:
		return nil, "an object cannot be required: require its fields"
	}
	lists := 0
	for _, c := range chain[:len(chain)-1] {
		switch c.Kind {
		case catalog.KindMap:
			return nil, "fields inside maps cannot carry required_when"
		case catalog.KindList:
			lists++
		}
	}
	if lists > 1 {
		return nil, "fields inside nested lists cannot carry required_when"
	}
	scope := chain[:len(chain)-1]
	if n.Secret {
		if lists > 0 {
			return nil, "secrets inside lists cannot carry required_when"
		}
		parent := n.Parent
		var mirror string
		for from, to := range secretScopes {
			if rest, ok := strings.CutPrefix(parent.Path, from+"."); ok {
				mirror = to + "." + rest
			}
		}
		c, _, bad := m.Lookup(mirror)
		if mirror == "" || bad >= 0 {
			return nil, fmt.Sprintf("%s has no counterpart under opencenter: (secrets.services.<k> belongs to opencenter.services.<k>)", parent.Path)
		}
		scope = c
	}
	r := &model.Requirement{Scope: scope, Target: chain}
	owner := m.Root
	if len(scope) > 0 {
		owner = scope[len(scope)-1]
	}
	for i := len(scope) - 1; i >= 0 && r.Gate == nil; i-- {
		if g := scope[i].Child("enabled"); g != nil && g.Kind == catalog.KindBool {
			r.Gate = g
		}
	}
	var pos, neg []string
	for _, raw := range strings.Split(n.RequiredWhen, ",") {
		t := model.Term{}
		term := strings.TrimSpace(raw)
		name := term
		switch {
		case strings.HasPrefix(term, "!"):
			t.Op, name = model.TermUnset, term[1:]
		case strings.Contains(term, "="):
			var vals string
			name, vals, _ = strings.Cut(term, "=")
			t.Op, t.Values = model.TermIn, strings.Split(vals, "|")
		default:
			t.Op = model.TermTrue
		}
		if strings.HasPrefix(name, "opencenter.") {
			// A switch elsewhere in the config, such as another service's.
			chain, _, bad := m.Lookup(name)
			switch {
			case bad >= 0:
				return nil, fmt.Sprintf("%q is not a field of the config", name)
			case t.Op != model.TermTrue || chain[len(chain)-1].Kind != catalog.KindBool:
				return nil, fmt.Sprintf("%s: a term naming a field outside the struct must be a bool, which must be true", name)
			case slices.ContainsFunc(chain, func(c *model.Node) bool { return c.Kind != catalog.KindObject && c.Kind != catalog.KindBool }):
				return nil, fmt.Sprintf("%s: a term outside the struct cannot reach into a list or map", name)
			}
			t.Node, t.Chain = chain[len(chain)-1], chain
			text := textPath(name) + " is true"
			if t.Node.JSON == "enabled" {
				text = textPath(t.Node.Parent.Path) + " is enabled"
			}
			pos = append(pos, text)
			r.Terms = append(r.Terms, t)
			continue
		}
		t.Node = owner.Child(name)
		if t.Node == nil {
			return nil, fmt.Sprintf("%q is not a key of %s%s", name, owner.Path, diag.Suggest(name, owner.Keys()))
		}
		path := textPath(t.Node.Path)
		switch t.Op {
		case model.TermTrue:
			if t.Node.Kind == catalog.KindString && !t.Node.Ptr {
				t.Op = model.TermSet
				r.By = t.Node
				pos = append(pos, path+" is set")
				break
			}
			if t.Node.Kind != catalog.KindBool {
				return nil, fmt.Sprintf("%s is %s: a term without =values or ! needs a bool, or a string (which must be set)", name, article(t.Node.Kind))
			}
			if t.Node == r.Gate {
				continue // the gate holds anyway
			}
			r.By = t.Node
			pos = append(pos, path+" is true")
		case model.TermIn:
			if t.Node.Kind != catalog.KindString && t.Node.Kind != catalog.KindInt {
				return nil, fmt.Sprintf("%s is %s: =values needs a string, enum or int field", name, article(t.Node.Kind))
			}
			for _, v := range t.Values {
				if v == "" {
					return nil, fmt.Sprintf("%s=: empty value", name)
				}
				if len(t.Node.Enum) > 0 && !slices.Contains(t.Node.Enum, v) {
					return nil, fmt.Sprintf("%q is not a value of %s: expected one of %s%s", v, name, strings.Join(t.Node.Enum, ", "), diag.Suggest(v, t.Node.Enum))
				}
				if _, err := strconv.Atoi(v); t.Node.Kind == catalog.KindInt && err != nil {
					return nil, fmt.Sprintf("%q is not an integer, and %s is an int field", v, name)
				}
			}
			r.By = t.Node
			pos = append(pos, path+" is "+orList(t.Values))
		case model.TermUnset:
			if t.Node.Kind == catalog.KindBool || (t.Node.Kind == catalog.KindObject && !t.Node.Ptr) {
				return nil, fmt.Sprintf("!%s: %s is %s, which is never unset", name, name, article(t.Node.Kind))
			}
			neg = append(neg, path)
		}
		r.Terms = append(r.Terms, t)
	}
	if len(pos) == 0 {
		if r.Gate == nil {
			return nil, "nothing makes the field required: name a condition, or drop the tag"
		}
		pos = append(pos, textPath(r.Gate.Parent.Path)+" is enabled")
	}
	if r.By == nil {
		r.By = r.Gate
	}
	r.Text = strings.Join(pos, " and ")
	if len(neg) > 0 {
		r.Text += ", unless " + strings.Join(neg, " or ") + " is set"
	}
	return r, ""
}

// textPath is a path as users write it to explain: without "opencenter.".
func textPath(p string) string { return strings.TrimPrefix(p, "opencenter.") }

// orList joins values as "a", "a or b", "a, b or c".
func orList(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}
