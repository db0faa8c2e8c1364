package render

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestComputedKustomizations: the resources and namespace the plan keeps
// for the kustomizations it computes are what their text says.
func TestComputedKustomizations(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	n := 0
	for _, name := range names {
		for _, f := range plan(t, name).Files {
			if f.kust == nil {
				continue
			}
			n++
			want, err := kustomizationOf(f.Data)
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			if !slices.Equal(want.Resources, f.kust.Resources) || want.Namespace != f.kust.Namespace {
				t.Errorf("%s: the plan keeps %+v, the text says %+v", f.Path, *f.kust, want)
			}
		}
	}
	if n < 100 {
		t.Errorf("%d computed kustomizations in the fixture", n)
	}
}
