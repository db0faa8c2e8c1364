package render

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/helmvalues"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
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
// repository on disk (none when the plan is built without a repository),
// never through a symbolic link that leaves it (b.escaped).
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
		dir := path.Join(b.p.Overlay, u.Root, LocalDir)
		if !b.localExists(u, dir) {
			continue // the common case: one look, not one per file
		}
		var l local
		if kind, ok := b.localKind(u, path.Join(dir, "kustomization.yaml")); ok {
			l.kustomization, l.component = true, kind == "Component"
		}
		if data, ok := b.readUser(u, path.Join(dir, LocalValues)); ok {
			l.values = data
		}
		if l.kustomization || l.values != nil {
			b.local[u.Name] = l
			b.include[joinRoot(u.Root, LocalDir)] = true // present, though the render does not produce it
		}
	}
	dirs := b.appliedDirs(active)
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		dir := path.Join(b.p.Overlay, d, LocalDir)
		if !b.localExists(dirs[d], dir) {
			continue
		}
		if kind, ok := b.localKind(dirs[d], path.Join(dir, "kustomization.yaml")); ok {
			b.localDirs[d] = kind == "Component"
			b.include[joinRoot(d, LocalDir)] = true
		}
	}
}

// localExists reports whether the local directory dir (a path in the
// repository) is there.
func (b *builder) localExists(u *catalog.Unit, dir string) bool {
	_, err := inrepo.Stat(b.o.Repo, dir)
	switch {
	case err == nil:
		return true
	case errors.Is(err, fs.ErrNotExist):
	default:
		b.userFileError(u, err)
	}
	return false
}

// readUser reads a user's file at p, a path in the repository; ok is
// false when it is not there or cannot be read (reported).
func (b *builder) readUser(u *catalog.Unit, p string) (data []byte, ok bool) {
	data, err := inrepo.ReadFile(b.o.Repo, p)
	switch {
	case err == nil:
		return data, true
	case errors.Is(err, fs.ErrNotExist):
	default:
		b.userFileError(u, err)
	}
	return nil, false
}

// userFileError reports a user's file that cannot be read, a refused
// symbolic link apart (Build's UnsafeError).
func (b *builder) userFileError(u *catalog.Unit, err error) {
	var esc *inrepo.EscapeError
	if errors.As(err, &esc) {
		b.escaped = append(b.escaped, esc.Error())
		return
	}
	b.errorf(u, "%v", err)
}

// localKind reads the kind of the local kustomization at p; ok is false
// when there is none.
func (b *builder) localKind(u *catalog.Unit, p string) (kind string, ok bool) {
	data, ok := b.readUser(u, p)
	if !ok {
		return "", false
	}
	var head struct {
		Kind string `yaml:"kind"`
	}
	if err := userYAML(data, &head); err != nil {
		b.errorf(u, "%s: %v", filepath.Join(b.o.Repo, filepath.FromSlash(p)), err)
	}
	return head.Kind, true
}

// userYAML decodes a user's YAML file into out, a mapping, with an error
// that places the problem but never quotes the file: yaml.v3's own errors
// may hold its text.
func userYAML(data []byte, out any) error {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return contentFree(err, "not valid YAML")
	}
	if len(n.Content) == 0 {
		return nil // empty
	}
	if root := n.Content[0]; root.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: not a YAML mapping", root.Line)
	}
	if err := n.Decode(out); err != nil {
		return contentFree(err, "a key or value of an unexpected type")
	}
	return nil
}

// yamlLine finds the line yaml.v3 gives a problem.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// contentFree is what a yaml.v3 error says about where it is, with what.
func contentFree(err error, what string) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("line %s: %s", m[1], what)
	}
	return errors.New(what)
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
		if err := userYAML(l.values, &user); err != nil {
			b.errorf(u, "%s: %v: expected a YAML mapping of Helm values", filepath.Join(b.o.Repo, filepath.FromSlash(path.Join(b.p.Overlay, u.Root, LocalDir, LocalValues))), err)
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
// whole tree Flux will see (verify); never through a symbolic link that
// leaves the repository (an *inrepo.EscapeError).
func LocalFiles(repo string, p *Plan) (map[string][]byte, error) {
	out := map[string][]byte{}
	root := filepath.Join(repo, filepath.FromSlash(p.Overlay))
	err := walkOwned(root, func(rel string, e fs.DirEntry) error {
		if e.IsDir() || !isLocal(rel) {
			return nil
		}
		if e.Type()&fs.ModeSymlink != 0 {
			info, err := inrepo.Stat(repo, p.Overlay+"/"+rel)
			if err != nil || info.IsDir() {
				return err // a link to a directory is walked where it points
			}
		}
		data, err := inrepo.ReadFile(repo, p.Overlay+"/"+rel)
		out[p.Overlay+"/"+rel] = data
		return err
	})
	return out, err
}
