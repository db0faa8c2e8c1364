package plan

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestBuildersShareNothing: plans built one after another are the plans
// built first, in whatever order the configs come: one config's units,
// files or objects never reach another's plan through anything the
// package might keep between plans.
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
