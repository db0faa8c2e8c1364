package config

import (
	"strings"
	"testing"
)

// TestLoadWithoutCatalog: loading in a program that does not import the
// generated catalog is a programming error that names the missing import,
// not a config that passes unchecked.
func TestLoadWithoutCatalog(t *testing.T) {
	saved := catalog
	catalog = nil
	defer func() { catalog = saved }()
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, "zz_generated") {
			t.Errorf("panic %q, want one naming the import of zz_generated", msg)
		}
	}()
	Parse("x.yaml", []byte("opencenter: {}\n"), LoadOptions{})
	t.Error("loaded without a catalog")
}

// TestRegisterCatalogTwice: a second registration panics instead of
// silently replacing the first.
func TestRegisterCatalogTwice(t *testing.T) {
	if catalog == nil {
		t.Skip("no catalog registered in this test binary")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second RegisterCatalog did not panic")
		}
	}()
	RegisterCatalog(*catalog)
}
