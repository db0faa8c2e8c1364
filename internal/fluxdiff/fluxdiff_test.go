package fluxdiff

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
)

// obj reads an object from YAML, as a build gives it, from file.
func obj(t *testing.T, file, text string) fluxbuild.Object {
	t.Helper()
	var body map[string]any
	if err := sigsyaml.Unmarshal([]byte(text), &body); err != nil {
		t.Fatal(err)
	}
	md, _ := body["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	o := fluxbuild.Object{APIVersion: body["apiVersion"].(string), Kind: body["kind"].(string), Name: name, Namespace: ns, Body: body, File: file}
	return o
}

// generated marks o as made by a kustomize generator in kustomization file.
func generated(o fluxbuild.Object, kind string) fluxbuild.Object {
	o.Generator = kind
	return o
}

func built(name string, objs ...fluxbuild.Object) fluxsim.Unit {
	return fluxsim.Unit{Name: name, State: fluxsim.Built, Source: "ssh://git@example.com/org/cluster.git", Objects: objs}
}

func secret(name, ns string, stringData map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  namespace: %s\nstringData:\n", name, ns)
	for k, v := range stringData {
		j, _ := json.Marshal(v)
		fmt.Fprintf(&b, "  %s: %s\n", k, j)
	}
	return b.String()
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: app
  namespace: apps
spec:
  chart:
    spec:
      chart: app
      version: 1.0.0
  valuesFrom:
  - kind: Secret
    name: app-values-base
    valuesKey: values.yaml
  - kind: Secret
    name: app-values-override
    valuesKey: override.yaml
    optional: true
  - kind: Secret
    name: app-credentials
    optional: true
`

// states builds the two states of a cluster the tests compare: a base
// unit with a HelmRelease and its base values, an override unit with the
// override values, a credentials Secret (encrypted in the repository) and
// a ConfigMap, a unit that moves, one not compared and one that fails.
func states(t *testing.T, head bool) *State {
	pick := func(old, new string) string {
		if head {
			return new
		}
		return old
	}
	base := generated(obj(t, "applications/base/app/kustomization.yaml", `apiVersion: v1
kind: Secret
metadata:
  name: app-values-base
  namespace: apps
data:
  values.yaml: `+b64("replicas: 1\nimage:\n  tag: v1\nlogging:\n  level: info\n")), "SecretGenerator")
	override := generated(obj(t, "overlay/app/kustomization.yaml", secret("app-values-override", "apps", map[string]string{
		"override.yaml": pick("image:\n  tag: v2\n", "image:\n  tag: v3\nlogging:\n  format: json\n"),
	})), "SecretGenerator")
	creds := obj(t, "overlay/app/credentials.yaml", secret("app-credentials", "apps", map[string]string{
		"values.yaml": pick("db:\n  password: Zq9old\n  user: app\n", "db:\n  password: Zq9new\n  user: app\n"),
		"token":       "Zq9token",
	}))
	cm := obj(t, "overlay/app/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: apps\ndata:\n  mode: "+pick("fast", "safe")+"\n")
	ns := obj(t, "overlay/app/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n")
	tree := fluxbuild.Tree{
		"overlay/app/kustomization.yaml":   []byte("secretGenerator:\n- name: app-values-override\n  files:\n  - override.yaml=values/override.yaml\n"),
		"overlay/app/values/override.yaml": nil,
		"overlay/app/credentials.yaml":     nil,
	}
	st := &State{Tree: tree, Encrypted: map[string]bool{"overlay/app/credentials.yaml": true}}
	hr := obj(t, "applications/base/app/helmrelease.yaml", release)
	mover := obj(t, "overlay/shared/role.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: viewer\nrules: []\n")
	st.Units = []fluxsim.Unit{
		{Name: "app-base", State: fluxsim.Built, Source: "https://example.com/base.git", Objects: []fluxbuild.Object{base, hr}},
		built("app-override", override, creds, cm),
		{Name: "customer", State: fluxsim.NotChecked, Reason: "not checked offline", Source: "ssh://git@example.com/customer.git"},
	}
	if head {
		st.Units[1].Objects = append(st.Units[1].Objects, ns, mover)
		st.Units = append(st.Units, fluxsim.Unit{Name: "broken", State: fluxsim.Failed, Reason: "kustomize build overlay/broken: missing resource"})
		st.Units[0].Remote = []string{"applications/base/app/kustomization.yaml https://example.com/crds.yaml?ref=v2"}
	} else {
		st.Units = append(st.Units, built("shared", mover))
		st.Units[0].Remote = []string{"applications/base/app/kustomization.yaml https://example.com/crds.yaml?ref=v1"}
	}
	return st
}

func TestCompare(t *testing.T) {
	c := Compare("dev", states(t, false), states(t, true))
	var text, color, md bytes.Buffer
	if err := c.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	c.WriteText(&color, true)
	c.WriteMarkdown(&md)
	js, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	g := goldie.New(t)
	g.Assert(t, "compare.txt", text.Bytes())
	g.Assert(t, "compare.md", md.Bytes())
	g.Assert(t, "compare.json", js)
	for _, out := range []string{text.String(), color.String(), md.String(), string(js), fmt.Sprintf("%v %+v %#v", c, c, c)} {
		if strings.Contains(out, "Zq9") {
			t.Errorf("a secret value is in the output:\n%s", out)
		}
	}
	if !strings.Contains(color.String(), colorGreen+"      +  format: json"+colorReset) {
		t.Errorf("no color on an added line:\n%q", color.String())
	}
}

// TestUnchanged: a cluster whose Flux units apply the same objects is one
// line, unless some units were not compared: the change may be in them,
// and the report names them.
func TestUnchanged(t *testing.T) {
	compared := func(head bool) *State {
		st := states(t, head)
		st.Units = slices.DeleteFunc(st.Units, func(u fluxsim.Unit) bool { return u.State == fluxsim.NotChecked })
		return st
	}
	c := Compare("dev", compared(false), compared(false))
	var text bytes.Buffer
	c.WriteText(&text, false)
	if c.Changed() || !c.Unaffected() || text.String() != "dev: no change\n" {
		t.Errorf("unchanged: %+v\n%s", c, text.String())
	}
	c = Compare("dev", states(t, false), states(t, false))
	text.Reset()
	c.WriteText(&text, false)
	want := "dev: no change in the Flux units compared\n  not compared offline: 1 Flux unit of ssh://git@example.com/customer.git (customer)\n"
	if c.Changed() || c.Unaffected() || text.String() != want {
		t.Errorf("unchanged where compared: %+v\n%s", c, text.String())
	}
}

// TestSecrets: the data of Secrets compares by value, by ciphertext when
// no key opened it, and a changed key says "changed", nothing more.
func TestSecrets(t *testing.T) {
	const enc1, enc2 = "ENC[AES256_GCM,data:Zq9a,iv:x,tag:y,type:str]", "ENC[AES256_GCM,data:Zq9b,iv:x,tag:y,type:str]"
	state := func(text string) *State {
		o := obj(t, "overlay/s.yaml", text)
		return &State{Tree: fluxbuild.Tree{"overlay/s.yaml": []byte("sops:\n")}, Encrypted: map[string]bool{"overlay/s.yaml": true}, Units: []fluxsim.Unit{built("u", o)}}
	}
	sec := func(data string) string {
		return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: n\n" + data + "sops:\n  mac: x\n"
	}
	for _, tc := range []struct {
		name, base, head string
		want             string // the report's lines, "" for no change
		cipher           bool
	}{
		{"same plaintext in data and stringData", sec("data:\n  k: " + b64("Zq9v") + "\n"), sec("stringData:\n  k: Zq9v\n"), "", false},
		{"value changed", sec("stringData:\n  k: Zq9v\n  same: Zq9s\n"), sec("stringData:\n  k: Zq9w\n  same: Zq9s\n"), "+  k: (secret, changed)", false},
		{"key added", sec("stringData:\n  k: Zq9v\n"), sec("stringData:\n  k: Zq9v\n  l: Zq9w\n"), "+  l: (secret)", false},
		{"same ciphertext", sec("data:\n  k: " + enc1 + "\n"), sec("data:\n  k: " + enc1 + "\n"), "", false},
		{"other ciphertext", sec("data:\n  k: " + enc1 + "\n"), sec("data:\n  k: " + enc2 + "\n"), "+  k: (secret, changed)", true},
		{"a ConfigMap from an encrypted file", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: Zq9v\n", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: Zq9w\n", "+  k: (secret, changed)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compare("dev", state(tc.base), state(tc.head))
			var b bytes.Buffer
			c.WriteText(&b, false)
			if strings.Contains(b.String(), "Zq9") || strings.Contains(b.String(), "ENC[") {
				t.Errorf("a secret value is in the output:\n%s", b.String())
			}
			if tc.want == "" {
				if c.Changed() {
					t.Errorf("a change:\n%s", b.String())
				}
				return
			}
			if !strings.Contains(b.String(), tc.want) || c.Ciphertext != tc.cipher {
				t.Errorf("want %q (ciphertext %v) in:\n%s", tc.want, tc.cipher, b.String())
			}
		})
	}
}

// TestNewCluster: a cluster with an overlay only in the new state has every
// unit and object added; one with an overlay only in the old state is one
// line.
func TestNewCluster(t *testing.T) {
	c := Compare("new", nil, states(t, true))
	if c.Change != Added || c.Summary() != "a new overlay: 4 Flux units, 7 objects" {
		t.Errorf("%s: %s", c.Change, c.Summary())
	}
	for _, u := range c.Units {
		if u.Change != Added {
			t.Errorf("%s: %s", u.Unit, u.Change)
		}
	}
	c = Compare("gone", states(t, false), nil)
	var b bytes.Buffer
	c.WriteText(&b, false)
	if c.Change != Removed || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("%s:\n%s", c.Change, b.String())
	}
}

func TestYAMLPath(t *testing.T) {
	text := strings.Split(`spec:
  dependsOn:
  - name: sources
  patches:
  - patch: |
      $patch: delete
    target:
      kind: Namespace
  path: ./x
`, "\n")
	for i, want := range map[int]string{0: "", 1: "spec", 2: "spec.dependsOn", 5: "spec.patches[].patch", 7: "spec.patches[].target", 8: "spec"} {
		if got := yamlPath(text, i); got != want {
			t.Errorf("line %d (%q): %q, want %q", i, text[i], got, want)
		}
	}
}
