package generate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/gen/emit"
)

// TestDescriptorsMissing: without descriptors/, generation fails, and
// zz_generated keeps its files. An input the generator cannot read is an
// error, never an empty catalog whose Write would delete every generated
// file as stale.
func TestDescriptorsMissing(t *testing.T) {
	o := Options{Root: t.TempDir(), Descriptors: "descriptors", Out: "zz_generated"}
	kept := filepath.Join(o.Root, o.Out, "units.go")
	if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kept, []byte(emit.Header+"\n\npackage generated\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	files, err := GenerateWith(o, loadModel(t))
	if err == nil {
		// What gen/main.go does next.
		_, remove, werr := Write(o, files)
		t.Errorf("generated %d files without descriptors/, want an error; Write removed %q (%v)", len(files), remove, werr)
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q does not say that descriptors/ does not exist", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("zz_generated/units.go is gone: %v", err)
	}
}
