package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// TestLazyPositions: the positions a loaded file finds from its text when a
// diagnostic needs them are those of the decrypted tree the load decoded,
// for every key of every fixture config.
func TestLazyPositions(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(names) == 0 {
		t.Fatal("no fixture configs")
	}
	// An encrypted config with a mapping alias (its plaintext values may be
	// edited: mac_only_encrypted): the load copies the aliased keys, with
	// the anchor's positions, as a walk of the file finds them.
	dev, err := os.ReadFile("../../testdata/fixture/.k8s-dev-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	aliased := strings.Replace(string(dev), "        harbor:\n", "        harbor:\n            source: &s\n                branch: main\n", 1)
	aliased = strings.Replace(aliased, "            source:\n                branch: main\n", "            source: *s\n", 1)
	if !strings.Contains(aliased, "*s\n") || !strings.Contains(aliased, "&s\n") {
		t.Fatal("the fixture changed: no place for the alias")
	}
	aliasedName := filepath.Join(t.TempDir(), ".k8s-dev-config.yaml")
	if err := os.WriteFile(aliasedName, []byte(aliased), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range append(names, aliasedName) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// The positions of the tree the load decodes, as decoding it finds them.
		root, err := yamlfile.ParseText(name, string(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := open(name, root, LoadOptions{}); err != nil {
			t.Fatal(err)
		}
		eager, err := yamlfile.DecodeNode(name, root, &Config{})
		if err != nil {
			t.Fatal(err)
		}
		checked, err := Parse(name, data, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if checked.pos.pos != nil {
			t.Fatalf("%s: the positions were found before any diagnostic needed them", name)
		}
		lazy, n := checked.positions(), 0
		if name == aliasedName && !eager.Has("opencenter.managed_services.alert-proxy.source.branch") {
			t.Fatal("the aliased config has no copy of the aliased key")
		}
		for p, want := range eager.All() {
			n++
			if !lazy.Has(p) || lazy.Of(p) != want {
				t.Errorf("%s: %s at %v, found again at %v (present: %v)", name, p, want, lazy.Of(p), lazy.Has(p))
			}
		}
		if n < 200 {
			t.Errorf("%s: %d positions", name, n)
		}
	}
}
