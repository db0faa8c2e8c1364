package render

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestHeaderNames: whatever characters a config's file name has (one that
// spells a header's hash too), the header stays one line that ownership
// reads back, with or without a seal.
func TestHeaderNames(t *testing.T) {
	names := []string{".k8s-dev-config.yaml", ".k8s dev-config.yaml", ".k8s\ndev-config.yaml", `."quoted"-config.yaml`, ".k8s-dév\u2028-config.yaml", "a\\b",
		"x sha256:0000000000000000 y", "sha256:ffffffffffffffff"}
	for _, name := range names {
		for _, fp := range []string{"", strings.Repeat("ab", 32)} {
			data := withSOPSHeader(name, "loki", []byte("kind: Secret\n"), fp)
			if st, unit := ownership(data); st != Owned || unit != "loki" || headerSeal(data) != fp {
				t.Errorf("%q: %v %q, seal %q\n%s", name, st, unit, headerSeal(data), data)
			}
		}
	}
}

// TestBuildersShareNothing: plans built one after another are the plans
// built first, in whatever order the configs come: one config's units,
// files or objects never reach another's plan through what the package
// keeps between plans (its caches of the tables' patches).
func TestBuildersShareNothing(t *testing.T) {
	more, _ := filepath.Glob("testdata/configs/*.yaml")
	names := append(fixtureConfigs(t), more...)
	type built struct {
		files map[string][]byte
		units []UnitStatus
	}
	snapshot := func(p *Plan) built {
		b := built{files: map[string][]byte{}, units: p.Units}
		for _, f := range p.Files {
			if len(f.Recipients) == 0 { // encrypted files have random IVs
				b.files[f.Path] = bytes.Clone(f.Data)
			} else {
				b.files[f.Path] = nil
			}
		}
		return b
	}
	first := map[string]built{}
	for _, n := range names {
		first[n] = snapshot(plan(t, n))
	}
	for round := range 2 {
		order := slices.Clone(names)
		if round == 0 {
			slices.Reverse(order)
		}
		for _, n := range order {
			got := snapshot(plan(t, n))
			if !reflect.DeepEqual(got, first[n]) {
				t.Fatalf("%s plans differently after other configs (round %d)", n, round)
			}
		}
	}
}
