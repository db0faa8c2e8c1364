package render

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/helmvalues"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// LocalDir is the user-owned escape hatch of every unit: <unit root>/local/.
// The renderer wires it in but never writes, deletes or compares anything in
// it: a kustomization.yaml there is listed by the unit's kustomization, as a
// component when it is a kustomize Component (which can patch the unit's own
// objects) or else as a resource (more objects); a values.yaml is laid over
// the unit's generated Helm values, after them.
const LocalDir = "local"

// LocalValues is the file of a local directory holding user Helm values.
const LocalValues = "values.yaml"

// local is what a unit's local directory holds.
type local struct {
	kustomization bool
	// component: the kustomization is a kustomize Component.
	component bool
	values    []byte
}

// readLocal reads the escape hatches of the active units from the
// repository on disk (none when the plan is built without a repository).
func (b *builder) readLocal(active []*catalog.Unit) {
	if b.o.Repo == "" {
		return
	}
	if _, err := os.Lstat(filepath.Join(b.o.Repo, filepath.FromSlash(b.p.Overlay))); errors.Is(err, fs.ErrNotExist) {
		b.newOverlay = true
		return // a new overlay: one system call, not one per unit and directory
	}
	for _, u := range active {
		if u.Root == "" {
			continue
		}
		dir := filepath.Join(b.o.Repo, filepath.FromSlash(b.p.Overlay), filepath.FromSlash(u.Root), LocalDir)
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			continue // the common case: one system call, not one per file
		}
		var l local
		if k, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml")); err == nil {
			var head struct {
				Kind string `yaml:"kind"`
			}
			if err := yaml.Unmarshal(k, &head); err != nil {
				b.errorf(u, "%s: %v", filepath.Join(dir, "kustomization.yaml"), err)
			}
			l.kustomization, l.component = true, head.Kind == "Component"
		}
		data, err := os.ReadFile(filepath.Join(dir, LocalValues))
		switch {
		case err == nil:
			l.values = data
		case !errors.Is(err, fs.ErrNotExist):
			b.errorf(u, "reading %s: %v", filepath.Join(dir, LocalValues), err)
		}
		if l.kustomization || l.values != nil {
			b.local[u.Name] = l
			b.include[joinRoot(u.Root, LocalDir)] = true // present, though the render does not produce it
		}
	}
	dirs := b.appliedDirs(active)
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		k := filepath.Join(b.o.Repo, filepath.FromSlash(b.p.Overlay), filepath.FromSlash(d), LocalDir, "kustomization.yaml")
		data, err := os.ReadFile(k)
		if err != nil {
			continue
		}
		var head struct {
			Kind string `yaml:"kind"`
		}
		if err := yaml.Unmarshal(data, &head); err != nil {
			b.errorf(dirs[d], "%s: %v", k, err)
		}
		b.localDirs[d] = head.Kind == "Component"
		b.include[joinRoot(d, LocalDir)] = true
	}
}

// appliedDirs lists the overlay directories, other than the standard units'
// roots (whose local/ readLocal reads with its values), that the active
// units' Flux units apply, each with its unit.
func (b *builder) appliedDirs(active []*catalog.Unit) map[string]*catalog.Unit {
	standard := map[string]bool{}
	for _, u := range active {
		for _, f := range u.Files {
			if f.Builtin == catalog.BuiltinStandard {
				standard[path.Dir(f.OverlayPath)] = true
			}
		}
	}
	dirs := map[string]*catalog.Unit{}
	for _, u := range active {
		for _, fu := range u.FluxUnits {
			if !fu.When.Holds(b.c) {
				continue
			}
			rel, ok := strings.CutPrefix(strings.TrimPrefix(b.expand(u, fu.Path), "./"), b.p.Overlay+"/")
			if ok && !standard[rel] {
				dirs[path.Clean(rel)] = u
			}
		}
	}
	return dirs
}

// listLocal adds local to the rendered (template) kustomization of every
// directory in localDirs: as a component when it is a kustomize Component,
// else as a resource. The template's leading comment is kept.
func (b *builder) listLocal() {
	for _, d := range slices.Sorted(maps.Keys(b.localDirs)) {
		p := joinRoot(d, "kustomization.yaml")
		f, ok := b.files[p]
		if !ok {
			continue // the directory's kustomization is computed later, or absent
		}
		u := unitByName(f.Unit)
		text := body(f.Data)
		var k map[string]any
		if err := yaml.Unmarshal(text, &k); err != nil || k == nil {
			b.errorf(u, "%s: adding %s: not a kustomization: %v", p, LocalDir, err)
			continue
		}
		key := "resources"
		if b.localDirs[d] {
			key = "components"
		}
		list, _ := k[key].([]any)
		if slices.Contains(list, any(LocalDir)) {
			continue
		}
		k[key] = append(list, LocalDir)
		var out []byte
		for _, l := range strings.SplitAfter(string(text), "\n") {
			if !strings.HasPrefix(l, "#") {
				break
			}
			out = append(out, l...)
		}
		out = fmt.Appendf(out, "# With the user's %s/ listed.\n", LocalDir)
		f.Data = withHeader(b.cfgName(), f.Unit, p, append(out, yamlenc.Marshal(k)...))
	}
}

// mergeLocalValues lays each standard unit's local values.yaml over its
// generated Helm values: mappings merge key by key, anything else is
// replaced by the user's value.
func (b *builder) mergeLocalValues(active []*catalog.Unit) {
	for _, u := range active {
		l, ok := b.local[u.Name]
		if !ok || l.values == nil || u.ValuesSecret == "" {
			continue
		}
		p := joinRoot(u.Root, valuesFile)
		f, ok := b.files[p]
		if !ok {
			continue
		}
		var gen, user map[string]any
		if err := yaml.Unmarshal(body(f.Data), &gen); err != nil {
			b.errorf(u, "%s: %v", p, err)
			continue
		}
		if err := yaml.Unmarshal(l.values, &user); err != nil {
			b.errorf(u, "%s/%s/%s/%s: not a YAML mapping of Helm values: %v", b.p.Overlay, u.Root, LocalDir, LocalValues, err)
			continue
		}
		merged := helmvalues.Merge(gen, user)
		note := fmt.Appendf(nil, "# Generated values with %s/%s laid over them.\n", LocalDir, LocalValues)
		f.Data = withHeader(b.cfgName(), u.Name, p, append(note, yamlenc.Marshal(merged)...))
	}
}

// isLocal reports whether an overlay path lies in a unit's local
// directory: whether a directory on it is named LocalDir. It looks at the
// segments as written (every plan path is clean), without path.Dir's
// cleaning per level.
func isLocal(p string) bool {
	dir := p[:max(strings.LastIndexByte(p, '/'), 0)]
	for dir != "" {
		var seg string
		seg, dir, _ = strings.Cut(dir, "/")
		if seg == LocalDir {
			return true
		}
	}
	return false
}

// LocalFiles reads the files of every local/ directory of a plan's overlay
// on disk, keyed by their path in the repository, for tools that need the
// whole tree Flux will see (verify).
func LocalFiles(repo string, p *Plan) (map[string][]byte, error) {
	out := map[string][]byte{}
	root := filepath.Join(repo, filepath.FromSlash(p.Overlay))
	err := walkOwned(root, func(rel string, e fs.DirEntry) error {
		if !e.Type().IsRegular() || !isLocal(rel) {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		out[p.Overlay+"/"+rel] = data
		return err
	})
	return out, err
}
