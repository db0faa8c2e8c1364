package fluxbuild

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/fluxcd/pkg/apis/kustomize"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	sigsyaml "sigs.k8s.io/yaml"
)

// Object is one Kubernetes object a build produces.
type Object struct {
	APIVersion string
	Kind       string
	Name       string
	// Namespace is empty for cluster-scoped objects and for namespaced
	// objects that the build leaves without one.
	Namespace string
	// Body is the whole object.
	Body map[string]any
	// File is the artifact path the object comes from: the manifest it was
	// read from, or, for generated objects, the kustomization file holding
	// the generator.
	File string
	// Generator is the kind of the kustomize generator that produced the
	// object (SecretGenerator, ConfigMapGenerator, ...); empty for objects
	// read from a manifest file.
	Generator string
}

// Generated reports whether a kustomize generator produced the object, as
// opposed to a manifest file in the artifact: a Secret generated from a
// values file is not a Secret manifest in git.
func (o Object) Generated() bool { return o.Generator != "" }

// Group is the API group of the object ("" for the core group).
func (o Object) Group() string {
	if g, _, ok := strings.Cut(o.APIVersion, "/"); ok {
		return g
	}
	return ""
}

// ID names the object as kind/namespace/name (kind/name when cluster-scoped).
func (o Object) ID() string {
	if o.Namespace == "" {
		return o.Kind + "/" + o.Name
	}
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

// Result is what building one path gives.
type Result struct {
	Objects []Object
	// Remote lists the remote resources (URLs) left out, as "dir: url", sorted.
	Remote []string
}

// Tree is a source artifact in memory: slash-separated paths to contents.
type Tree map[string][]byte

// Builder builds paths of one artifact. It is safe for concurrent use.
type Builder struct {
	mu     sync.Mutex
	fs     filesys.FileSystem
	files  Tree
	remote map[string][]string // dir -> remote resources stripped from its kustomization
}

var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// NewBuilder loads an artifact. Remote resources are stripped from every
// kustomization file here, once.
func NewBuilder(files Tree) (*Builder, error) {
	b := &Builder{fs: filesys.MakeFsInMemory(), files: files, remote: map[string][]string{}}
	for p, data := range files {
		if slices.Contains(kustomizationNames, path.Base(p)) {
			stripped, remote, err := stripRemote(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			if len(remote) > 0 {
				data = stripped
				b.remote[path.Dir(p)] = remote
			}
		}
		if err := b.fs.WriteFile("/"+p, data); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// IsRemote reports whether a kustomization resource is a URL kustomize
// would fetch.
func IsRemote(r string) bool {
	return strings.Contains(r, "://") || strings.HasPrefix(r, "github.com/") || strings.HasPrefix(r, "git@")
}

func stripRemote(data []byte) ([]byte, []string, error) {
	var k map[string]any
	if err := sigsyaml.Unmarshal(data, &k); err != nil {
		return nil, nil, err
	}
	res, _ := k["resources"].([]any)
	var keep []any
	var remote []string
	for _, r := range res {
		if s, ok := r.(string); ok && IsRemote(s) {
			remote = append(remote, s)
			continue
		}
		keep = append(keep, r)
	}
	if len(remote) == 0 {
		return data, nil, nil
	}
	k["resources"] = keep
	if len(keep) == 0 {
		delete(k, "resources")
		if len(k) <= 2 { // apiVersion and kind only: kustomize refuses an empty kustomization
			k["buildMetadata"] = []any{"originAnnotations"}
		}
	}
	out, err := sigsyaml.Marshal(k)
	return out, remote, err
}

// Has reports whether the artifact has a directory (any file under dir);
// "." is the artifact's root.
func (b *Builder) Has(dir string) bool {
	dir = path.Clean(dir)
	for p := range b.files {
		if under(p, dir) {
			return true
		}
	}
	return false
}

// under reports whether the artifact path p lies below dir ("." is the root).
func under(p, dir string) bool {
	return dir == "." || strings.HasPrefix(p, dir+"/")
}

// join gives the artifact path of p in dir, "." being the root.
func join(dir, p string) string { return path.Join(dir, p) }

// Build builds dir as kustomize-controller would for a Kustomization with
// this targetNamespace ("" for none) and these spec.patches. dir "." (or
// "./", "") is the artifact's root, which is what a Kustomization without
// spec.path builds.
func (b *Builder) Build(dir, targetNamespace string, patches []kustomize.Patch) (*Result, error) {
	dir = path.Clean(strings.TrimPrefix(dir, "./"))
	if dir == "/" || dir == ".." || strings.HasPrefix(dir, "../") || strings.HasPrefix(dir, "/") {
		return nil, fmt.Errorf("path %q is not inside the artifact", dir)
	}
	if !b.Has(dir) {
		return nil, fmt.Errorf("path %s does not exist in the artifact", dir)
	}
	b.mu.Lock()
	defer b.mu.Unlock()

	kpath, original, generated := "", []byte(nil), false
	for _, n := range kustomizationNames {
		if data, ok := b.files[join(dir, n)]; ok {
			kpath, original = "/"+join(dir, n), data
			break
		}
	}
	if kpath == "" {
		kpath, generated = "/"+join(dir, "kustomization.yaml"), true
		original = b.generate(dir)
	} else if cur, err := b.fs.ReadFile(kpath); err == nil {
		original = cur // remote resources already stripped
	}
	data, keepOrigin, err := rootKustomization(original, targetNamespace, patches)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kpath[1:], err)
	}
	if err := b.fs.WriteFile(kpath, data); err != nil {
		return nil, err
	}
	defer func() {
		if generated {
			_ = b.fs.RemoveAll(kpath)
		} else {
			_ = b.fs.WriteFile(kpath, original)
		}
	}()

	opts := krusty.MakeDefaultOptions()
	opts.LoadRestrictions = kustypes.LoadRestrictionsNone
	opts.PluginConfig = kustypes.DisabledPluginConfig()
	root := "/" + dir
	if dir == "." {
		root = "/"
	}
	m, err := krusty.MakeKustomizer(opts).Run(b.fs, root)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %s", dir, strings.ReplaceAll(err.Error(), "'/", "'"))
	}
	res := &Result{}
	for _, r := range m.Resources() {
		o := Object{APIVersion: r.GetApiVersion(), Kind: r.GetKind(), Name: r.GetName(), Namespace: r.GetNamespace()}
		origin, err := r.GetOrigin()
		if err != nil {
			return nil, fmt.Errorf("kustomize build %s: %s: %w", dir, o.ID(), err)
		}
		o.File, o.Generator = originFile(dir, origin)
		if !keepOrigin {
			if err := r.SetOrigin(nil); err != nil {
				return nil, err
			}
		}
		if o.Body, err = r.Map(); err != nil {
			return nil, err
		}
		res.Objects = append(res.Objects, o)
	}
	res.Remote = b.remoteUnder(dir)
	return res, nil
}

// rootKustomization rewrites the kustomization being built as
// kustomize-controller's generator does, targetNamespace as its namespace
// and the Flux patches after its own, and turns origin annotations on so
// that every object says which file it came from. keepOrigin reports
// whether the kustomization asked for origin annotations itself, in which
// case they are part of the applied objects and stay.
func rootKustomization(data []byte, targetNamespace string, patches []kustomize.Patch) (out []byte, keepOrigin bool, err error) {
	var k map[string]any
	if err := sigsyaml.Unmarshal(data, &k); err != nil {
		return nil, false, err
	}
	if k == nil {
		return data, false, nil // an empty file: let kustomize report it
	}
	if targetNamespace != "" {
		k["namespace"] = targetNamespace
	}
	if len(patches) > 0 {
		own, _ := k["patches"].([]any)
		for _, p := range patches {
			own = append(own, kustypes.Patch{Patch: p.Patch, Target: selector(p.Target)})
		}
		k["patches"] = own
	}
	meta, _ := k["buildMetadata"].([]any)
	keepOrigin = slices.Contains(meta, any(kustypes.OriginAnnotations))
	if !keepOrigin {
		k["buildMetadata"] = append(meta, kustypes.OriginAnnotations)
	}
	out, err = sigsyaml.Marshal(k)
	return out, keepOrigin, err
}

// selector is a Flux patch target as kustomize reads it.
func selector(s *kustomize.Selector) *kustypes.Selector {
	if s == nil {
		return nil
	}
	out := &kustypes.Selector{LabelSelector: s.LabelSelector, AnnotationSelector: s.AnnotationSelector}
	out.Group, out.Version, out.Kind = s.Group, s.Version, s.Kind
	out.Name, out.Namespace = s.Name, s.Namespace
	return out
}

// originFile turns kustomize's origin annotation, whose paths are relative
// to the directory built, into an artifact path and the generator's kind.
func originFile(dir string, o *resource.Origin) (file, generator string) {
	switch {
	case o == nil:
		return "", ""
	case o.ConfiguredIn != "":
		file, generator = o.ConfiguredIn, o.ConfiguredBy.Kind
		if generator == "" {
			generator = "generator"
		}
	default:
		file = o.Path
	}
	if o.Repo != "" {
		return o.Repo + "//" + file, generator
	}
	return join(dir, file), generator
}

// remoteUnder lists the remote resources stripped from the kustomizations a
// build of dir can reach: those at dir or below it, and those of
// directories it references (a conservative superset is fine for a report).
func (b *Builder) remoteUnder(dir string) []string {
	var out []string
	for d, rs := range b.remote {
		if d == dir || under(d, dir) || b.referenced(dir, d) {
			for _, r := range rs {
				out = append(out, d+": "+r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// referenced reports whether the kustomization in dir names target as a
// resource, directly or through other directories.
func (b *Builder) referenced(dir, target string) bool {
	seen := map[string]bool{}
	var walk func(d string) bool
	walk = func(d string) bool {
		if seen[d] {
			return false
		}
		seen[d] = true
		data, ok := b.files[join(d, "kustomization.yaml")]
		if !ok {
			return false
		}
		var k struct {
			Resources  []string `json:"resources"`
			Components []string `json:"components"`
		}
		if sigsyaml.Unmarshal(data, &k) != nil {
			return false
		}
		for _, r := range append(k.Resources, k.Components...) {
			if IsRemote(r) {
				continue
			}
			t := path.Clean(path.Join(d, r))
			if t == target || walk(t) {
				return true
			}
		}
		return false
	}
	return walk(dir)
}

// generate writes the kustomization kustomize-controller generates for a
// path without one: every .yaml/.yml file below it, except that a
// subdirectory with its own kustomization is listed as a directory.
func (b *Builder) generate(dir string) []byte {
	kdirs := map[string]bool{}
	for p := range b.files {
		if slices.Contains(kustomizationNames, path.Base(p)) && under(p, dir) {
			kdirs[path.Dir(p)] = true
		}
	}
	var resources []string
	seen := map[string]bool{}
	for p := range b.files {
		if !under(p, dir) {
			continue
		}
		if ext := path.Ext(p); ext != ".yaml" && ext != ".yml" {
			continue
		}
		under := ""
		for d := path.Dir(p); d != dir && d != "."; d = path.Dir(d) {
			if kdirs[d] {
				under = d
			}
		}
		r := p
		if under != "" {
			r = under
		}
		if !seen[r] {
			seen[r] = true
			rel := r
			if dir != "." {
				rel = strings.TrimPrefix(r, dir+"/")
			}
			resources = append(resources, "./"+rel)
		}
	}
	slices.Sort(resources)
	k := map[string]any{"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization"}
	if len(resources) == 0 {
		k["namespace"] = "_placeholder"
	} else {
		k["resources"] = resources
	}
	out, _ := sigsyaml.Marshal(k)
	return out
}

// Field returns the value at a path of nested mappings, such as an object's
// spec.chart.spec.sourceRef; nil when any part is absent.
func Field(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

// String is Field for a string value; "" when absent or not a string.
func String(m map[string]any, keys ...string) string {
	s, _ := Field(m, keys...).(string)
	return s
}
