package plan

import (
	"bytes"
	"iter"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
	"github.com/opencenter-dev/opencenter/internal/toolcheck"
)

// loadConfig loads and checks a test config.
func loadConfig(t testing.TB, name string) *config.File {
	t.Helper()
	f, err := config.Load(name, config.LoadOptions{})
	if err != nil {
		t.Fatalf("loading %s:\n%v", name, err)
	}
	return f
}

// plan builds the plan of a test config, secrets allowed.
func plan(t testing.TB, name string) *Plan {
	t.Helper()
	p, err := Build(loadConfig(t, name), Options{AllowPlaintextSecrets: true})
	if err != nil {
		t.Fatalf("planning %s:\n%v", name, err)
	}
	return p
}

// planEdited builds the plan of a test config after edit changed its copy
// of the config; edit copies what it changes below the top level.
func planEdited(t testing.TB, name string, edit func(c *config.Config)) *Plan {
	t.Helper()
	f := loadConfig(t, name)
	c := *f.Config
	edit(&c)
	f.Config = &c
	p, err := Build(f, Options{})
	if err != nil {
		t.Fatalf("planning %s, edited:\n%v", name, err)
	}
	return p
}

// treeText is a plan as one reviewable text: every file with its path and
// mode. Encryption is randomised, so an encrypted file shows its recipients
// and what it decrypts to with the fixture's key (which must be one of them).
func treeText(t testing.TB, p *Plan) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, f := range p.Files {
		mode := "0644"
		if f.Secret {
			mode = "0600"
		}
		data := f.Data
		if len(f.Recipients) > 0 {
			ids, err := sops.LoadIdentities()
			if err != nil {
				t.Fatal(err)
			}
			plain, meta, err := sops.Decrypt(overlay.Body(f.Data), ids)
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			mode += ", sops for " + strings.Join(meta.Recipients, ",") + " selecting " + meta.EncryptedRegex
			data = plain
		}
		b.WriteString("=== " + f.Path + " (" + mode + ", unit " + f.Unit + ") ===\n")
		b.Write(data)
	}
	return b.Bytes()
}

// documents splits a YAML stream into its non-empty documents.
func documents(t testing.TB, name string, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, doc := range strings.Split("\n"+string(data), "\n---") {
		var m map[string]any
		if err := sigsyaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Errorf("%s: not YAML: %v", name, err)
			continue
		}
		if len(m) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// field and str read a decoded object's nested fields.
var (
	field = fluxbuild.Field
	str   = fluxbuild.String
)

// secretKeys returns the keys of a decoded Secret's data and stringData.
func secretKeys(secret map[string]any) []string {
	var out []string
	for _, f := range []string{"data", "stringData"} {
		m, _ := secret[f].(map[string]any)
		for k := range m {
			out = append(out, k)
		}
	}
	return out
}

// checkWithTools checks a plan as Flux, kustomize and the API server would
// see it: every object passes apiProblems (its CRD or its API type, names,
// references); every dependsOn and sourceRef resolves inside the render;
// the overlay root and every overlay directory a Flux unit applies build
// with kustomize.
func checkWithTools(t *testing.T, p *Plan) {
	t.Helper()
	tree := toolcheck.Tree{p.Overlay + "/flux-system/kustomization.yaml": []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n")}
	files := map[string][]byte{}
	var kustomizations, repos []map[string]any
	for _, f := range p.Files {
		tree[p.Overlay+"/"+f.Path] = f.Data
		files[f.Path] = f.Data
		for _, obj := range documents(t, f.Path, f.Data) {
			av, kind := str(obj, "apiVersion"), str(obj, "kind")
			switch kind {
			case "Kustomization":
				if strings.HasPrefix(av, "kustomize.toolkit.fluxcd.io") {
					kustomizations = append(kustomizations, obj)
				}
			case "GitRepository":
				repos = append(repos, obj)
			}
		}
	}
	for _, e := range apiProblems(files) {
		t.Error(e)
	}
	names := map[string]bool{}
	sources := map[string]bool{"flux-system": true}
	var stubRoots []string
	for _, k := range kustomizations {
		names[str(k, "metadata", "name")] = true
	}
	for _, r := range repos {
		sources[str(r, "metadata", "name")] = true
		incs, _ := field(r, "spec", "include").([]any)
		for _, i := range incs {
			stubRoots = append(stubRoots, str(i.(map[string]any), "toPath"))
		}
	}
	dirs := []string{p.Overlay}
	for _, k := range kustomizations {
		name := str(k, "metadata", "name")
		if src := str(k, "spec", "sourceRef", "name"); !sources[src] {
			t.Errorf("Kustomization %s: sourceRef %s is not rendered", name, src)
		}
		deps, _ := field(k, "spec", "dependsOn").([]any)
		for _, d := range deps {
			if dn := str(d.(map[string]any), "name"); !names[dn] {
				t.Errorf("Kustomization %s: dependsOn %s is not rendered", name, dn)
			}
		}
		if path := strings.TrimPrefix(str(k, "spec", "path"), "./"); strings.HasPrefix(path, p.Overlay+"/") {
			dirs = append(dirs, path)
		}
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	for _, d := range dirs {
		if _, err := toolcheck.Kustomize(tree, d, stubRoots...); err != nil {
			t.Errorf("%v", err)
		}
	}
	checkNoOrphans(t, p, dirs)
}

// checkNoOrphans: every rendered file is reached from the root or a Flux
// unit's directory through kustomization resources and generator files.
func checkNoOrphans(t *testing.T, p *Plan, dirs []string) {
	t.Helper()
	reached := map[string]bool{".sops.yaml": true}
	var visit func(dir string)
	visit = func(dir string) {
		k := path.Join(dir, "kustomization.yaml")
		f, ok := p.File(k)
		if !ok || reached[k] {
			return
		}
		reached[k] = true
		parsed, err := parseKustomization(f.Data)
		if err != nil {
			t.Errorf("%s: %v", k, err)
			return
		}
		for _, r := range parsed.refs {
			target := path.Clean(path.Join(dir, r))
			if _, ok := p.File(target); ok {
				reached[target] = true
				continue
			}
			visit(target)
		}
	}
	for _, d := range dirs {
		visit(strings.TrimPrefix(strings.TrimPrefix(d, p.Overlay), "/"))
	}
	visit(".")
	for _, f := range p.Files {
		if !reached[f.Path] {
			t.Errorf("%s: orphan file, listed by no kustomization Flux applies", f.Path)
		}
	}
}

func TestMain(m *testing.M) {
	cleanup, err := fixturekey.Use()
	if err != nil {
		panic(err)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// corpusValues yields each corpus plan that renders unit's Helm values
// (services/<unit>/helm-values/override-values.yaml), with the values
// decoded into a new T.
func corpusValues[T any](t *testing.T, unit string) iter.Seq2[*Plan, *T] {
	return func(yield func(*Plan, *T) bool) {
		for _, p := range corpusPlans(t) {
			f, ok := p.File("services/" + unit + "/helm-values/override-values.yaml")
			if !ok {
				continue
			}
			v := new(T)
			if err := yaml.Unmarshal(f.Data, v); err != nil {
				t.Fatalf("%s: %s's values: %v", p.Config, unit, err)
			}
			if !yield(p, v) {
				return
			}
		}
	}
}

// writePlan compares a plan with repo and writes the changes.
func writePlan(repo string, p *Plan, o overlay.WriteOptions) error {
	changes, err := overlay.Diff(repo, &p.Tree, o)
	if err != nil {
		return err
	}
	return overlay.Apply(repo, &p.Tree, changes)
}
