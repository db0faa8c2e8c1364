package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLazyPositions: the positions a checked file finds again from its
// bytes are those the load had, for every key of every fixture config.
func TestLazyPositions(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(names) == 0 {
		t.Fatal("no fixture configs")
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		eager, err := Decode(name, data, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checked, err := Parse(name, data, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if checked.pos != nil {
			t.Fatalf("%s: a checked file keeps its positions", name)
		}
		lazy, n := checked.positions(), 0
		for p, want := range eager.pos.All() {
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

// TestAliasedKeepsPositions: a file that uses aliases says so, so that an
// encrypted one keeps the positions its load found (the load expands its
// aliases); the fixture uses none.
func TestAliasedKeepsPositions(t *testing.T) {
	f, err := Decode("a.yaml", []byte("opencenter:\n  meta:\n    labels:\n      a: &v b\n      c: *v\n"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !f.aliased {
		t.Error("an aliased file is not marked aliased")
	}
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	for _, name := range names {
		data, _ := os.ReadFile(name)
		if f, err := Decode(name, data, LoadOptions{}); err != nil || f.aliased {
			t.Errorf("%s: aliased %v, %v", name, f != nil && f.aliased, err)
		}
	}
}
