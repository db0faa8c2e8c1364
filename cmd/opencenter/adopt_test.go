package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/overlay"
)

// TestAdoptOpencenterCLITree takes over the overlay openCenter-cli rendered
// (testdata/import/opencenter-cli-tree) for the config imported from it,
// in the two steps docs/user/migrating-from-opencenter-cli.md gives.
func TestAdoptOpencenterCLITree(t *testing.T) {
	src, repo := importCase(t)
	if code, _, stderr := runCLI("import", src, "--repo", repo, "--allow-plaintext-secrets"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	// Step 0: the decisions validate names, answered as
	// TestImportEachConfig answers them.
	settle(t, filepath.Join(repo, ".os-dev-config.yaml"), "os-dev")
	ov := filepath.Join(repo, overlay.Dir("os-dev"))
	if err := os.CopyFS(ov, os.DirFS("../../testdata/import/opencenter-cli-tree/os-dev")); err != nil {
		t.Fatal(err)
	}
	fluxSystem := filepath.Join(ov, "flux-system", "gotk-sync.yaml")
	if err := os.MkdirAll(filepath.Dir(fluxSystem), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fluxSystem, []byte("bootstrap's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oldTree := readTree(t, ov)

	render := func(args ...string) (int, string, string) {
		return runCLI(append([]string{"render", "--repo", repo, "--allow-plaintext-secrets"}, args...)...)
	}
	code, _, stderr := render()
	if code != exitRefused || !strings.Contains(stderr, "render --adopt") {
		t.Fatalf("render: exit %d, want 3 naming --adopt: %s", code, stderr)
	}
	// Step 1 missing: the renamed units would be pruned with what they applied.
	code, _, stderr = render("--adopt")
	if code != exitRefused || !strings.Contains(stderr, "refusing to adopt") {
		t.Fatalf("render --adopt over unsuspended renamed units: exit %d, want 3: %s", code, stderr)
	}
	if got := readTree(t, ov); !equalTrees(got, oldTree) {
		t.Fatal("a refused adoption changed the overlay")
	}
	unsafe := regexp.MustCompile(`(?m)^  (\S+) \(applications/overlays/os-dev/(\S+)\)$`).FindAllStringSubmatch(stderr, -1)
	var names []string
	for _, m := range unsafe {
		names = append(names, m[1])
		suspendUnit(t, filepath.Join(ov, filepath.FromSlash(m[2])), m[1])
	}
	if !slices.Contains(names, "envoy-gateway-api-base") || !slices.Contains(names, "envoy-gateway-api-override") || !slices.Contains(names, "olm-override") {
		t.Fatalf("refusal names %v, want the renamed units of FIELDMAP.md section 9", names)
	}
	// What Flux applies after step 1: the old tree, those units suspended.
	suspendedTree := readTree(t, ov)

	code, stdout, stderr := render("--adopt", "-o", "json")
	if code != 0 {
		t.Fatalf("render --adopt: exit %d: %s", code, stderr)
	}
	var rep struct {
		Configs []struct {
			Changes []changeJSON `json:"changes"`
		} `json:"configs"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Configs) != 1 {
		t.Fatalf("-o json: %v:\n%s", err, stdout)
	}
	n := map[string]int{}
	for _, ch := range rep.Configs[0].Changes {
		n[ch.Op]++
		_, existed := suspendedTree[ch.Path]
		if ch.Adopted != existed || strings.HasPrefix(ch.Path, "flux-system/") {
			t.Errorf("change %+v: adopted %v, but the old tree had it: %v", ch, ch.Adopted, existed)
		}
	}
	newTree := readTree(t, ov)
	created, updated, deleted := 0, 0, 0
	for p, data := range newTree {
		old, ok := suspendedTree[p]
		switch {
		case !ok:
			created++
		case !bytes.Equal(old, data):
			updated++
		}
	}
	for p := range suspendedTree {
		if _, ok := newTree[p]; !ok {
			deleted++
		}
	}
	t.Logf("adopted: %d created, %d updated, %d deleted", created, updated, deleted)
	if n["create"] != created || n["update"] != updated || n["delete"] != deleted || created == 0 || updated == 0 || deleted == 0 {
		t.Errorf("listing: %v; the disk: %d created, %d updated, %d deleted", n, created, updated, deleted)
	}
	if !bytes.Equal(newTree["flux-system/gotk-sync.yaml"], []byte("bootstrap's\n")) {
		t.Error("flux-system/ changed")
	}

	// Every HelmRelease the old units applied is applied by a new unit,
	// and one whose unit is not rendered again sat in a suspended unit.
	x, err := baseindex.Load("../../descriptors/base-index/2026.01.json")
	if err != nil {
		t.Fatal(err)
	}
	before := appliedHelmReleases(t, x, suspendedTree)
	after := appliedHelmReleases(t, x, newTree)
	if len(before) == 0 {
		t.Fatal("the old tree applies no HelmRelease")
	}
	for hr, olds := range before {
		now := after[hr]
		if len(now) == 0 {
			// Left to its owner (calico, external) is safe only if
			// no old unit deletes it when it goes.
			if slices.ContainsFunc(olds, func(a applier) bool { return !a.gcSafe }) {
				t.Errorf("HelmRelease %s: applied by %v before, by no Flux Kustomization after adoption", hr, olds)
			}
			continue
		}
		for _, old := range olds {
			if !old.gcSafe && !slices.ContainsFunc(now, func(a applier) bool { return a.unit == old.unit }) {
				t.Errorf("HelmRelease %s moves from %s to %v, and %s garbage-collects when pruned", hr, old.unit, now, old.unit)
			}
		}
	}
	t.Logf("%d HelmReleases preserved", len(before))
}

// applier is the Flux Kustomization that applies a HelmRelease, and whether
// deleting it leaves its objects (suspended, or prune off).
type applier struct {
	unit   string
	gcSafe bool
}

// appliedHelmReleases maps "namespace/name" of the HelmReleases that the
// Flux Kustomizations of tree (paths relative to the overlay) apply: from
// the base index for base paths, from the overlay's files for its own.
func appliedHelmReleases(t *testing.T, x *baseindex.Index, tree map[string][]byte) map[string][]applier {
	t.Helper()
	const overlayDir = "applications/overlays/os-dev/"
	out := map[string][]applier{}
	for _, data := range tree {
		for _, k := range decodeAll(data) {
			if k.Kind != "Kustomization" || !strings.HasPrefix(k.APIVersion, "kustomize.toolkit.fluxcd.io/") {
				continue
			}
			a := applier{unit: k.Metadata.Name, gcSafe: k.Spec.Suspend || !k.Spec.Prune}
			p := path.Clean(strings.TrimPrefix(k.Spec.Path, "./"))
			deleted := map[string]bool{} // patches that delete a HelmRelease from the build
			for _, pt := range k.Spec.Patches {
				if pt.Target.Kind == "HelmRelease" && strings.Contains(pt.Patch, "$patch: delete") {
					deleted[pt.Target.Name] = true
				}
			}
			add := func(name, ns string) {
				if deleted[name] {
					return
				}
				if k.Spec.TargetNamespace != "" {
					ns = k.Spec.TargetNamespace
				}
				out[ns+"/"+name] = append(out[ns+"/"+name], a)
			}
			if rel, ok := strings.CutPrefix(p+"/", overlayDir); ok {
				for f, data := range tree {
					if !strings.HasPrefix(f, rel) {
						continue
					}
					for _, o := range decodeAll(data) {
						if o.Kind == "HelmRelease" {
							add(o.Metadata.Name, o.Metadata.Namespace)
						}
					}
				}
				continue
			}
			if d, ok := x.Dir(p); ok {
				for _, hr := range d.HelmReleases {
					add(hr.Name, hr.Namespace)
				}
			}
		}
	}
	return out
}

type k8sObject struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name      string `yaml:"name"`
		Namespace string `yaml:"namespace"`
	} `yaml:"metadata"`
	Spec struct {
		Path            string `yaml:"path"`
		TargetNamespace string `yaml:"targetNamespace"`
		Suspend         bool   `yaml:"suspend"`
		Prune           bool   `yaml:"prune"`
		Patches         []struct {
			Patch  string `yaml:"patch"`
			Target struct {
				Kind string `yaml:"kind"`
				Name string `yaml:"name"`
			} `yaml:"target"`
		} `yaml:"patches"`
	} `yaml:"spec"`
}

func decodeAll(data []byte) []k8sObject {
	var out []k8sObject
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var o k8sObject
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err == nil {
			out = append(out, o)
		} else if _, ok := err.(*yaml.TypeError); !ok {
			return out
		}
	}
}

// suspendUnit sets spec.suspend: true in the Flux Kustomization name in
// file, as a user does by hand in step 1.
func suspendUnit(t *testing.T, file, name string) {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(mustRead(t, file)))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	found := false
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var o k8sObject
		if err := doc.Decode(&o); err == nil && o.Metadata.Name == name && o.Kind == "Kustomization" {
			spec := mapValue(doc.Content[0], "spec")
			if v := mapValue(spec, "suspend"); v != nil {
				v.Value = "true"
			} else {
				spec.Content = append(spec.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "suspend"}, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
			}
			found = true
		}
		if err := enc.Encode(&doc); err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Fatalf("%s: no Flux Kustomization %s", file, name)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// readTree reads every file under root, by slash path relative to it.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalTrees(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for p, d := range a {
		if !bytes.Equal(d, b[p]) {
			return false
		}
	}
	return true
}
