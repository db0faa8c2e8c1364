package render

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unsafe"
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

// TestFileArena: the files an arena hands out never share bytes, whatever
// their sizes (some outgrow a chunk) or nesting, and each is what
// withHeader gives for the same body.
func TestFileArena(t *testing.T) {
	var a fileArena
	var files, want [][]byte
	for i := range 400 {
		body := bytes.Repeat([]byte{'a' + byte(i%26)}, (i*i*37)%(3*arenaMinFree))
		write := func(dst []byte) ([]byte, error) { return append(dst, body...), nil }
		if i%7 == 0 { // a file written while another is being written
			var inner []byte
			outer, err := a.file("c.yaml", "u", func(dst []byte) ([]byte, error) {
				var err error
				inner, err = a.file("c.yaml", "inner", write)
				return append(dst, body...), err
			})
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, outer, inner)
			want = append(want, withHeader("c.yaml", "u", "", body), withHeader("c.yaml", "inner", "", body))
			continue
		}
		f, err := a.file("c.yaml", "u", write)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		want = append(want, withHeader("c.yaml", "u", "", body))
	}
	for i, f := range files {
		if cap(f) != len(f) {
			t.Errorf("file %d: capacity %d beyond its length %d: an append could reach the next file", i, cap(f), len(f))
		}
		if !bytes.Equal(f, want[i]) {
			t.Fatalf("file %d changed after it was written (%d bytes, want %d)", i, len(f), len(want[i]))
		}
	}
	if _, err := a.file("c.yaml", "u", func([]byte) ([]byte, error) { return nil, errors.New("boom") }); err == nil || a.busy {
		t.Errorf("a failed body: err %v, busy %v", err, a.busy)
	}
}

// TestPlanRelease: a released plan's files have no data left, and plans
// built after it, into the memory it gave back, are the same bytes as the
// first (the encrypted files, whose IVs are random, aside).
func TestPlanRelease(t *testing.T) {
	const cfg = "../../testdata/fixture/.k8s-dev-config.yaml"
	first := plan(t, cfg)
	want := map[string][]byte{}
	for _, f := range first.Files {
		if len(f.Recipients) == 0 {
			want[f.Path] = bytes.Clone(f.Data)
		}
	}
	if len(first.chunks) == 0 {
		t.Fatal("the plan's files were not written into arena chunks")
	}
	first.Release()
	if first.Files != nil {
		t.Fatal("the plan keeps its files after Release")
	}
	for range 3 {
		p := plan(t, cfg)
		for _, f := range p.Files {
			if w, ok := want[f.Path]; ok && !bytes.Equal(f.Data, w) {
				t.Fatalf("%s differs in a plan built after a release:\n%s\n--- want\n%s", f.Path, f.Data, w)
			}
		}
		p.Release()
	}
}

// TestReleaseReusesRoom: the plan built after a release holds its files
// in the released plan's slice, and Diff returns its changes in the slice
// it returned for the released plan, not fresh ones. One P and no
// collection, so the pools keep what was put in them.
func TestReleaseReusesRoom(t *testing.T) {
	if raceEnabled {
		t.Skip("with the race detector, sync.Pool drops some of what it is given")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	f := loadConfig(t, "../../testdata/fixture/.k8s-dev-config.yaml")
	repo := t.TempDir()
	build := func() (*Plan, []Change) {
		p, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatal(err)
		}
		changes, err := Diff(repo, p, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) != len(p.Files) {
			t.Fatalf("%d changes for %d files in an empty repository", len(changes), len(p.Files))
		}
		return p, changes
	}
	first, changes := build()
	files, made := unsafe.SliceData(first.Files), unsafe.SliceData(changes)
	first.Release()
	next, changes := build()
	defer next.Release()
	if unsafe.SliceData(next.Files) != files {
		t.Error("the plan after a release holds its files in a fresh slice")
	}
	if unsafe.SliceData(changes) != made {
		t.Error("Diff after a release returns its changes in a fresh slice")
	}
}

// TestBuildersShareNothing: plans built one after another, each builder
// reusing the emptied maps and file slabs of the one before (release),
// are the plans built first, in whatever order the configs come: one
// config's units, files or objects never reach another's plan.
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

// TestBuilderRelease: a released (reset) builder keeps nothing of its plan: its
// maps are empty, and every other field but the emptied file slabs, the
// objects list and the path buffer is zero.
func TestBuilderRelease(t *testing.T) {
	b := newBuilder(loadConfig(t, "../../testdata/fixture/.k8s-dev-config.yaml"), Options{AllowPlaintextSecrets: true})
	if _, err := b.build(); err != nil {
		t.Fatal(err)
	}
	v := reflect.ValueOf(b).Elem()
	filled := 0
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Map && f.Len() > 0 {
			filled++
		}
	}
	if filled < 8 {
		t.Fatalf("only %d of the builder's maps hold anything after a plan: the test sees too little", filled)
	}
	b.reset()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case f.Kind() == reflect.Map:
			if f.Len() != 0 {
				t.Errorf("released builder: map %s keeps %d entries", name, f.Len())
			}
		case name == "spare":
			for j := range f.Len() {
				slab := f.Index(j)
				for k := range slab.Cap() {
					if !slab.Slice(0, slab.Cap()).Index(k).IsZero() {
						t.Fatalf("released builder: a spare file slab keeps a file")
					}
				}
			}
		case name == "spareLabels":
			if f.Len() == 0 {
				t.Errorf("released builder: no label maps kept for the next plan")
			}
			for j := range f.Len() {
				if f.Index(j).Len() != 0 {
					t.Fatalf("released builder: a spare label map keeps labels")
				}
			}
		case name == "path" || name == "labelText" || name == "objects" || name == "fluxPlans" || name == "infos" || name == "outs" || name == "rendered":
			if f.Len() != 0 {
				t.Errorf("released builder: %s holds %d elements", name, f.Len())
			}
			if name != "path" && name != "labelText" {
				if f.Cap() == 0 {
					t.Errorf("released builder: no room kept in %s for the next plan", name)
				}
				for k := range f.Cap() {
					if !f.Slice(0, f.Cap()).Index(k).IsZero() {
						t.Fatalf("released builder: %s keeps an element", name)
					}
				}
			}
		case !f.IsZero():
			t.Errorf("released builder: %s is not zero", name)
		}
	}
}
