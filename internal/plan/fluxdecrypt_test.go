package plan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/toolcheck"
)

// TestFluxDecryptsRenderedSecrets follows an encrypted Secret the way
// Flux's kustomize-controller does, instead of reading the file as sops
// does: each Flux Kustomization of the cluster's repository with
// spec.decryption is built with kustomize (its kustomization's namespace
// and generators applied), and each object of the build that carries
// sops.mac is marshalled to JSON as kustomize's resource does, then
// decrypted from JSON to JSON by the real sops CLI without the MAC check
// (kustomize-controller skips it, since kustomize changes the objects).
// What comes out must be the object the same build makes with sops off.
// The repository's Flux Kustomizations are the ones that build it: with
// flux-system as their source, or a GitRepository of the repository's URL
// that brings in part of the base repository (whose directories are empty
// here, as in checkWithTools).
func TestFluxDecryptsRenderedSecrets(t *testing.T) {
	bin, ok := fixturekey.SopsCLI()
	if !ok {
		t.Skip("the sops CLI is not built: make test builds bin/sops")
	}
	dir := t.TempDir()
	n := 0
	for _, name := range fixtureConfigs(t) {
		f := loadConfig(t, name)
		encrypted, err := Build(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		plainConfig := *f.Config
		plainConfig.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false
		plainFile := *f
		plainFile.Config = &plainConfig
		plain, err := Build(&plainFile, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatal(err)
		}
		units, included := decryptingUnits(t, encrypted, config.FluxURL(f.Config.OpenCenter.GitOps.Repository.URL))
		enc, dec := repoBuilder(t, encrypted, units, included), repoBuilder(t, plain, units, included)
		decrypted := map[string]bool{}
		for _, u := range units {
			got, err := enc.Build(u.path, u.targetNamespace, nil)
			if err != nil {
				t.Fatalf("%s: %s: %v", encrypted.Overlay, u.name, err)
			}
			want, err := dec.Build(u.path, u.targetNamespace, nil)
			if err != nil {
				t.Fatalf("%s: %s: %v", plain.Overlay, u.name, err)
			}
			for _, o := range got.Objects {
				if fluxbuild.Field(o.Body, "sops", "mac") == nil {
					continue
				}
				n++
				decrypted[o.File] = true
				in, err := json.Marshal(o.Body)
				if err != nil {
					t.Fatal(err)
				}
				out, err := sopsDecrypt(t, bin, dir, "secret.json", in, "--ignore-mac", "--input-type", "json", "--output-type", "json")
				if err != nil {
					t.Errorf("%s: %s: %s: Flux would not decrypt it: %v", encrypted.Overlay, u.name, o.ID(), err)
					continue
				}
				var applied any
				if err := json.Unmarshal(out, &applied); err != nil {
					t.Fatal(err)
				}
				if w := objectByID(want.Objects, o.ID()); !reflect.DeepEqual(applied, jsonValue(t, w)) {
					t.Errorf("%s: %s: %s: Flux applies\n%s\nwhere sops off builds\n%s", encrypted.Overlay, u.name, o.ID(), out, jsonText(t, w))
				}
			}
		}
		for _, fl := range encrypted.Files {
			if len(fl.Recipients) > 0 && !decrypted[encrypted.Overlay+"/"+fl.Path] {
				t.Errorf("%s: %s is encrypted, but no Flux Kustomization with decryption applies it", encrypted.Overlay, fl.Path)
			}
		}
	}
	t.Logf("%d encrypted objects decrypted as Flux does", n)
	if n < 50 {
		t.Errorf("only %d encrypted objects in the Flux builds of the fixture", n)
	}
}

// repoBuilder is the cluster's repository as Flux's artifact: the plan's
// files at their place in the repository, and an empty kustomization for
// each directory under an included path (a GitRepository's spec.include
// brings in the base repository there) that the units' kustomizations
// refer to.
func repoBuilder(t *testing.T, p *Plan, units []fluxUnit, included []string) *fluxbuild.Builder {
	t.Helper()
	tree := toolcheck.Tree{}
	for _, f := range p.Files {
		tree[p.Overlay+"/"+f.Path] = f.Data
	}
	for _, u := range units {
		var err error
		if tree, err = toolcheck.Stubbed(tree, strings.TrimPrefix(u.path, "./"), included...); err != nil {
			t.Fatal(err)
		}
	}
	b, err := fluxbuild.NewBuilder(fluxbuild.Tree(tree))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fluxUnit is what building a Flux Kustomization needs.
type fluxUnit struct{ name, path, targetNamespace string }

// decryptingUnits are the plan's Flux Kustomizations with spec.decryption
// whose source is the cluster's repository: flux-system, or a GitRepository
// of the same URL that includes part of the base repository; included are
// the paths those GitRepositories include it at.
func decryptingUnits(t *testing.T, p *Plan, repoURL string) (units []fluxUnit, included []string) {
	t.Helper()
	var objs []map[string]any
	for _, f := range p.Files {
		docs, err := yamlDocs(f.Data)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for _, d := range docs {
			var o map[string]any
			if d.Decode(&o) == nil {
				objs = append(objs, o)
			}
		}
	}
	ours := map[string]bool{"flux-system": true}
	for _, o := range objs {
		if fluxbuild.String(o, "kind") == "GitRepository" && fluxbuild.String(o, "spec", "url") == repoURL {
			ours[fluxbuild.String(o, "metadata", "name")] = true
			incs, _ := fluxbuild.Field(o, "spec", "include").([]any)
			for _, i := range incs {
				included = append(included, fluxbuild.String(i.(map[string]any), "toPath"))
			}
		}
	}
	for _, o := range objs {
		if fluxbuild.String(o, "kind") != "Kustomization" ||
			!strings.HasPrefix(fluxbuild.String(o, "apiVersion"), "kustomize.toolkit.fluxcd.io/") ||
			fluxbuild.Field(o, "spec", "decryption") == nil || !ours[fluxbuild.String(o, "spec", "sourceRef", "name")] {
			continue
		}
		units = append(units, fluxUnit{
			name:            fluxbuild.String(o, "metadata", "name"),
			path:            fluxbuild.String(o, "spec", "path"),
			targetNamespace: fluxbuild.String(o, "spec", "targetNamespace"),
		})
	}
	if len(units) == 0 {
		t.Fatalf("%s: no Flux Kustomization of the cluster's repository decrypts", p.Overlay)
	}
	return units, included
}

func objectByID(objs []fluxbuild.Object, id string) *fluxbuild.Object {
	for i := range objs {
		if objs[i].ID() == id {
			return &objs[i]
		}
	}
	return nil
}

// jsonValue is the object as JSON reads it back, nil for none.
func jsonValue(t *testing.T, o *fluxbuild.Object) any {
	t.Helper()
	if o == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(jsonText(t, o)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func jsonText(t *testing.T, o *fluxbuild.Object) string {
	t.Helper()
	if o == nil {
		return "nothing"
	}
	b, err := json.Marshal(o.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSecretManifestDecrypts: with sops on, a Flux unit that applies a
// Secret manifest decrypts, though the manifest holds no secret material
// (alert-proxy's settings, with its token in an existing Secret): a Secret
// in git may be encrypted, and verify, as Flux's users do, takes one
// applied without decryption for a mistake.
func TestSecretManifestDecrypts(t *testing.T) {
	p := planEdited(t, fixtureConfigs(t)[0], func(c *config.Config) {
		ap := *c.OpenCenter.ManagedServices.AlertProxy
		ap.ExistingSecret = "alert-proxy-token"
		c.OpenCenter.ManagedServices.AlertProxy = &ap
		c.Secrets.ManagedServices.AlertProxy = nil
	})
	if _, ok := p.File("managed-services/alert-proxy/alert-proxy-tokens.yaml"); ok {
		t.Fatal("the tokens Secret is rendered: the unit applies secret material, and the test checks nothing")
	}
	unit, ok := p.File("managed-services/fluxcd/alert-proxy-override.yaml")
	if !ok {
		t.Fatal("no Flux unit alert-proxy-override")
	}
	if !bytes.Contains(unit.Data, []byte("\n  decryption:\n")) {
		t.Errorf("alert-proxy-override applies the Secret alert-proxy-settings without decryption:\n%s", unit.Data)
	}
}
