package generate

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/emit"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Options locates the inputs and outputs, relative to Root.
type Options struct {
	// Root is the module root.
	Root string
	// Descriptors is the descriptors folder ("descriptors").
	Descriptors string
	// Out is the output folder ("zz_generated").
	Out string
	// Catalog is the generated catalog document ("docs/reference/catalog.md"); "" for none.
	Catalog string
}

// Defaults are the project's own locations.
func Defaults(root string) Options {
	return Options{Root: root, Descriptors: "descriptors", Out: "zz_generated", Catalog: "docs/reference/catalog.md"}
}

// Generate loads, checks and emits; it returns the output files keyed by
// slash path relative to Root. It returns every error it finds, joined; the
// diagnostics among them, which concern inputs, as one sorted diag.List.
func Generate(o Options) (map[string][]byte, error) {
	m, err := model.Load(o.Root)
	if err != nil {
		return nil, err
	}
	return GenerateWith(o, m)
}

// GenerateWith is Generate with an already loaded model.
func GenerateWith(o Options, m *model.Model) (map[string][]byte, error) {
	descs, failed, derr := descriptor.LoadDir(o.Root, o.Descriptors)
	tmpls, err := descriptor.Templates(o.Root, o.Descriptors)
	if err != nil {
		return nil, err
	}
	schemas, err := descriptor.Schemas(o.Root, o.Descriptors)
	if err != nil {
		return nil, err
	}
	base, err := loadBase(filepath.Join(o.Root, o.Descriptors, "base-index"))
	if err != nil {
		return nil, err
	}
	units, cerr := check.Check(check.Input{
		Base:        base,
		Model:       m,
		Descriptors: descs,
		Dir:         o.Descriptors,
		Templates:   tmpls,
		Schemas:     schemas,
		Failed:      failed,
		ReadTemplate: func(rel string) (string, error) {
			b, err := os.ReadFile(filepath.Join(o.Root, o.Descriptors, "files", rel))
			return string(b), err
		},
	})
	reqs, rerr := check.Requirements(m, o.Root)
	ferr := check.Formats(m, o.Root)
	if err := join(derr, cerr, rerr, ferr); err != nil {
		return nil, err
	}
	cat := check.NewCatalog(m, units, reqs)

	emitters := map[string]func() ([]byte, error){
		"units.go":     func() ([]byte, error) { return emit.Units(units) },
		"templates.go": func() ([]byte, error) { return emit.Templates(units) },
		"fields.go":    func() ([]byte, error) { return emit.Fields(cat) },
		"check.go":     func() ([]byte, error) { return emit.Check(cat) },
		"defaults.go":  func() ([]byte, error) { return emit.Defaults(cat) },
		"schema.json":  func() ([]byte, error) { return emit.Schema(cat) },
		"schema.go":    schemaGo,
		"base.go":      func() ([]byte, error) { return emit.Base(base) },
		"register.go":  emit.Register,
	}
	out := map[string][]byte{}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(emitters)) {
		b, err := emitters[name]()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		out[o.Out+"/"+name] = b
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if o.Catalog != "" {
		out[o.Catalog] = emit.Catalog(units, base)
	}
	return out, nil
}

// join collects every error with errors.Join. The diagnostics among them
// are merged into one sorted list first, so that they print in
// file:line:col order whichever step found them; any other error (a
// folder that cannot be read) is kept as it is, never dropped: an empty
// result would let Write delete every generated file as stale.
func join(errs ...error) error {
	var diags diag.List
	var others []error
	for _, err := range errs {
		if l, ok := err.(diag.List); ok {
			diags = append(diags, l...)
		} else if err != nil {
			others = append(others, err)
		}
	}
	return errors.Join(append(others, diags.Err())...)
}

// loadBase reads the index of every supported base release, in file name
// order; a catalog without a base-index folder is checked without them.
func loadBase(dir string) ([]*baseindex.Index, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var out []*baseindex.Index
	for _, f := range files {
		x, err := baseindex.Load(f)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func schemaGo() ([]byte, error) {
	f := jen.NewFile(emit.PkgName)
	f.HeaderComment(strings.TrimPrefix(emit.Header, "// "))
	f.PackageComment("Package generated holds what opencenter-gen compiles from descriptors/ and")
	f.PackageComment("internal/config: the render table, the field index, defaults, the checks of the")
	f.PackageComment("load and the JSON Schema.")
	f.PackageComment("Importing it registers the catalog with config's load (register.go).")
	f.Anon("embed")
	f.Comment("Schema is the JSON Schema (draft 2020-12) of the cluster config.")
	f.Comment("")
	f.Comment("//go:embed schema.json")
	f.Var().Id("Schema").Index().Byte()
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Diff compares files with the disk and returns the paths that would be
// written (new or changed) and the stale generated files that would be deleted.
func Diff(o Options, files map[string][]byte) (write, remove []string, err error) {
	for p, b := range files {
		old, err := os.ReadFile(filepath.Join(o.Root, p))
		if err != nil || !bytes.Equal(old, b) {
			write = append(write, p)
		}
	}
	entries, err := os.ReadDir(filepath.Join(o.Root, o.Out))
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, err
	}
	for _, e := range entries {
		p := o.Out + "/" + e.Name()
		if _, ok := files[p]; ok || e.IsDir() {
			continue
		}
		if isGenerated(filepath.Join(o.Root, p)) {
			remove = append(remove, p)
		}
	}
	slices.Sort(write)
	slices.Sort(remove)
	return write, remove, nil
}

// Write writes new and changed files and deletes stale generated ones.
func Write(o Options, files map[string][]byte) (write, remove []string, err error) {
	write, remove, err = Diff(o, files)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range write {
		full := filepath.Join(o.Root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			return nil, nil, err
		}
	}
	for _, p := range remove {
		if err := os.Remove(filepath.Join(o.Root, p)); err != nil {
			return nil, nil, err
		}
	}
	return write, remove, nil
}

// isGenerated reports whether a file starts with the generated-code header.
func isGenerated(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(emit.Header))
	n, _ := f.Read(buf)
	return strings.HasPrefix(string(buf[:n]), emit.Header)
}
