package plan

import (
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// compiled returns the compiled template of descriptors/files/<tpl>.
func compiled(t testing.TB, tpl string) (*catalog.Unit, catalog.File) {
	t.Helper()
	for i := range generated.Units {
		u := &generated.Units[i]
		for _, f := range u.Files {
			if f.Template == tpl && f.Render != nil {
				return u, f
			}
		}
	}
	t.Fatalf("no compiled template %s", tpl)
	return nil, catalog.File{}
}

// nodeAt walks a parsed document by mapping keys and sequence indexes (ints).
func nodeAt(t *testing.T, out []byte, n *yaml.Node, path ...any) *yaml.Node {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case int:
			if n.Kind != yaml.SequenceNode || k >= len(n.Content) {
				t.Fatalf("no item %d at %v:\n%s", k, path, out)
			}
			n = n.Content[k]
		case string:
			var next *yaml.Node
			for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					next = n.Content[i+1]
				}
			}
			if next == nil {
				t.Fatalf("no key %q at %v:\n%s", k, path, out)
			}
			n = next
		}
	}
	return n
}

// parseOne reads one YAML document, failing the test on anything else.
func parseOne(t *testing.T, out []byte) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(out, &doc); err != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		t.Fatalf("not one YAML document (%v):\n%q", err, out)
	}
	return doc.Content[0]
}

// oneString requires n to be one string scalar holding exactly s.
func oneString(t *testing.T, out []byte, n *yaml.Node, s string) {
	t.Helper()
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || n.Value != s {
		t.Fatalf("read back %s %q, want the string %q:\n%q", n.ShortTag(), n.Value, s, out)
	}
}

// FuzzCompiledTemplate puts arbitrary strings through compiled templates,
// in a YAML value that a comment also prints (etcd-backup's bucket), inside
// a kustomize patch held in a block scalar (keycloak's frontend_url), and as
// a value of a Secret's stringData (alert-proxy's account_id): parsed
// with go.yaml.in/yaml/v3, each reads back as exactly the input, one string
// scalar, and the document keeps its shape.
func FuzzCompiledTemplate(f *testing.F) {
	for _, s := range []string{"bucket", "x\ninjected: y", "---", "a: b", "a #b", "\u2028", "\u2029", "\u0085", "\r", "\x00", "true", "null", "*anchor", "\ufeff\uffff", " lead", "1e3"} {
		f.Add(s)
	}
	base := loadConfig(f, "../../testdata/fixture/.k8s-dev-config.yaml").Config
	etcdUnit, etcd := compiled(f, "etcd-backup/cronjob.yaml.tpl")
	kcUnit, kc := compiled(f, "keycloak/20-keycloak/kustomization.yaml.tpl")
	apUnit, ap := compiled(f, "alert-proxy/alert-proxy-settings.yaml.tpl")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("config values come from UTF-8 YAML")
		}
		c := *base
		svc := c.OpenCenter.Services
		eb, k := *svc.EtcdBackup, *svc.Keycloak
		eb.Bucket, k.FrontendURL = s, s
		svc.EtcdBackup, svc.Keycloak = &eb, &k
		c.OpenCenter.Services = svc
		a := *c.OpenCenter.ManagedServices.AlertProxy
		a.AccountID = s
		c.OpenCenter.ManagedServices.AlertProxy = &a

		out, err := etcd.Render(nil, &c, &catalog.Info{Name: etcdUnit.Name, Namespace: "etcd-backup"})
		if err != nil {
			t.Fatal(err)
		}
		env := nodeAt(t, out, parseOne(t, out), "spec", "jobTemplate", "spec", "template", "spec", "containers", 0, "env", 0)
		oneString(t, out, nodeAt(t, out, env, "name"), "BUCKET")
		oneString(t, out, nodeAt(t, out, env, "value"), s)

		if s != "" { // the patch writes frontend_url only when there is one
			out, err = kc.Render(nil, &c, &catalog.Info{Name: kcUnit.Name, Namespace: "keycloak"})
			if err != nil {
				t.Fatal(err)
			}
			patch := nodeAt(t, out, parseOne(t, out), "patches", 0, "patch")
			inner := []byte(patch.Value)
			oneString(t, inner, nodeAt(t, inner, parseOne(t, inner), "spec", "hostname", "hostname"), s)
		}

		out, err = ap.Render(nil, &c, &catalog.Info{Name: apUnit.Name, Namespace: "rackspace"})
		if err != nil {
			t.Fatal(err)
		}
		oneString(t, out, nodeAt(t, out, parseOne(t, out), "stringData", "core_account_number"), s)
	})
}
