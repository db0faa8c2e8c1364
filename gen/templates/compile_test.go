package templates_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/sebdah/goldie/v2"

	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/gen/templates"
)

// loadModel loads the project's config model once: the templates in
// testdata read keycloak's config and secrets.
var loadModel = sync.OnceValues(func() (*model.Model, error) { return model.Load("../..") })

// compile compiles the template at path as a keycloak unit's.
func compile(t *testing.T, path, text string) (*templates.Output, error) {
	t.Helper()
	m, err := loadModel()
	if err != nil {
		t.Fatalf("loading the config model: %v", err)
	}
	node := func(p string) *model.Node {
		chain, _, bad := m.Lookup(p)
		if bad >= 0 {
			t.Fatalf("the config has no %s", p)
		}
		return chain[len(chain)-1]
	}
	name := filepath.Base(path)
	out, diags := templates.Compile(templates.Input{
		File: path, Name: name, Text: text, Func: templates.FuncName(name), Model: m,
		Service: node("opencenter.services.keycloak"), Secrets: node("secrets.services.keycloak"),
	})
	return out, diags.Err()
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestContexts compiles a template with a value in each context the
// compiler knows (a comment, a YAML scalar with literal text around its
// values, a YAML key, a toYaml block, a number, a gcfg subsection and
// value, an INI value, a YAML block scalar) and compares the Go it
// emits, which names each value's escaper, with
// testdata/contexts.go.golden. The template reads .Secrets, so its
// output is secret.
func TestContexts(t *testing.T) {
	const path = "testdata/contexts.yaml.tpl"
	out, err := compile(t, path, read(t, path))
	if err != nil {
		t.Fatalf("compiling %s:\n%v", path, err)
	}
	if !out.Secret {
		t.Error("Secret is false for a template that prints .Secrets.AdminPassword")
	}
	f := jen.NewFile("generated")
	f.ImportName(templates.EscapePkg, "escape")
	f.Add(out.Code)
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		t.Fatal(err)
	}
	goldie.New(t, goldie.WithNameSuffix(".golden")).Assert(t, "contexts.go", b.Bytes())

	out, err = compile(t, "plain.yaml.tpl", "realm: {{ .Service.Realm }}\n")
	if err != nil {
		t.Fatal(err)
	}
	if out.Secret {
		t.Error("Secret is true for a template that prints no secret")
	}
}

// TestErrors compiles each template of testdata/errors and compares its
// diagnostics, every one at the template's file:line:col, with
// testdata/errors/<case>.golden: field chains that do not resolve
// through the config types, and values whose context cannot be escaped.
func TestErrors(t *testing.T) {
	cases := []string{
		"field-chain",     // a typo, a field of a string, a typo midway, an unknown data field
		"value-in-quotes", // "https://{{ … }}": the escapers quote
		"context-differs", // a YAML value on one branch, a comment on the other
		"flow-collection", // a value inside [ ]
	}
	entries, err := os.ReadDir("testdata/errors")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml.tpl"); ok && !slices.Contains(cases, name) {
			t.Errorf("testdata/errors/%s is not a case of TestErrors", e.Name())
		}
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/errors"), goldie.WithNameSuffix(".golden"))
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			path := "testdata/errors/" + name + ".yaml.tpl"
			out, err := compile(t, path, read(t, path))
			if err == nil {
				t.Fatalf("compiled to %s; want an error", out.Func)
			}
			if out != nil {
				t.Errorf("an Output with the error")
			}
			g.Assert(t, name, []byte(err.Error()+"\n"))
		})
	}
}
