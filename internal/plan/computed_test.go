package plan

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestComputedKustomizations: what the plan keeps of the kustomizations it
// computes (what they apply, where, and the files they name) is what their
// text says.
func TestComputedKustomizations(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	n := 0
	for _, name := range names {
		b := newBuilder(loadConfig(t, name), Options{AllowPlaintextSecrets: true})
		if _, err := b.build(); err != nil {
			t.Fatal(err)
		}
		for _, f := range b.order {
			got := f.kustomization
			if got == nil {
				continue
			}
			n++
			want, err := parseKustomization(f.Data)
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			if !slices.Equal(want.file.Resources, got.file.Resources) || want.file.Namespace != got.file.Namespace ||
				!slices.Equal(want.refs, got.refs) {
				t.Errorf("%s: the plan keeps %+v, the text says %+v", f.Path, *got, *want)
			}
		}
	}
	if n < 100 {
		t.Errorf("%d computed kustomizations in the fixture", n)
	}
}
