package generate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/opencenter-dev/opencenter/gen/emit"
)

// TestUpToDate is the test mode of the generator's one entry point: it
// generates from the project's own descriptors and config types, in memory,
// and fails when zz_generated differs from that or holds a stale generated
// file (run `go generate ./...`).
func TestUpToDate(t *testing.T) {
	o := Defaults(root)
	files, err := GenerateWith(o, loadModel(t))
	if err != nil {
		t.Fatalf("generating from descriptors/:\n%v", err)
	}
	write, remove, err := Diff(o, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range write {
		t.Errorf("%s is stale: run go generate ./...", p)
	}
	for _, p := range remove {
		t.Errorf("%s is a stale generated file: run go generate ./... to delete it", p)
	}
}

// TestWriteDiff checks the write mode against the test mode in a temporary
// root: Write writes what Diff reports, then Diff reports nothing; a changed
// file is rewritten; a stale file with the generated header is deleted, and
// a file without it is left alone.
func TestWriteDiff(t *testing.T) {
	o := Options{Root: t.TempDir(), Descriptors: "descriptors", Out: "out"}
	header := emit.Header + "\n\npackage out\n"
	files := map[string][]byte{
		"out/a.go":   []byte(header + "// a\n"),
		"out/b.go":   []byte(header + "// b\n"),
		"out/s.json": []byte("{}\n"),
	}
	check := func(step string, wantWrite, wantRemove []string) {
		t.Helper()
		write, remove, err := Diff(o, files)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !slices.Equal(write, wantWrite) || !slices.Equal(remove, wantRemove) {
			t.Errorf("%s: Diff = write %q, remove %q; want write %q, remove %q", step, write, remove, wantWrite, wantRemove)
		}
	}
	put := func(rel, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(o.Root, rel), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	check("empty root", []string{"out/a.go", "out/b.go", "out/s.json"}, nil)
	if _, _, err := Write(o, files); err != nil {
		t.Fatal(err)
	}
	check("after Write", nil, nil)
	for p, want := range files {
		if got, err := os.ReadFile(filepath.Join(o.Root, p)); err != nil || string(got) != string(want) {
			t.Errorf("%s: got %q (%v), want %q", p, got, err, want)
		}
	}

	put("out/b.go", header+"// edited\n")
	put("out/old.go", header+"// from a removed emitter\n")
	put("out/hand.go", "package out\n")
	check("after edits", []string{"out/b.go"}, []string{"out/old.go"})
	if _, _, err := Write(o, files); err != nil {
		t.Fatal(err)
	}
	check("after second Write", nil, nil)
	if _, err := os.Stat(filepath.Join(o.Root, "out/old.go")); !os.IsNotExist(err) {
		t.Errorf("stale generated out/old.go was not deleted (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(o.Root, "out/hand.go")); err != nil {
		t.Errorf("out/hand.go has no generated header and must be kept: %v", err)
	}
}
