package plan

import (
	"path"
	"slices"
	"strings"

	"github.com/fluxcd/pkg/apis/kustomize"
	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/fluxorder"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// applied is what one Flux unit applies: its objects, and where secret
// material among them comes from (fluxPlan.secretFiles).
type applied struct {
	objects     []fluxorder.Object
	secretFiles []string
}

// baseRelease returns the index of the base release a unit's base sources
// follow, nil when the ref is not an indexed release.
func (b *builder) baseRelease(u *catalog.Unit) *catalog.BaseRelease {
	ref := b.c.OpenCenter.GitOps.BaseRepo.Ref()
	if o := u.SourceOverride(b.c); o != nil {
		ref = cmpOr(o.Release, cmpOr(o.Branch, ref))
	}
	return indexedRelease(ref)
}

// indexedRelease returns the index of the base release at ref (a tag or
// branch), nil when the tables have none.
func indexedRelease(ref string) *catalog.BaseRelease {
	for i := range generated.BaseReleases {
		if r := &generated.BaseReleases[i]; r.Ref == ref {
			return r
		}
	}
	return nil
}

// sourceRepo returns the repo of an active source.
func (b *builder) sourceRepo(name string) (catalog.Repo, *catalog.Source, *catalog.Unit) {
	for i := range generated.Units {
		u := &generated.Units[i]
		for j := range u.Sources {
			if u.Sources[j].Name == name {
				return u.Sources[j].Repo, &u.Sources[j], u
			}
		}
	}
	return "", nil, nil
}

// appliedBy works out what a Flux unit applies: for a base path, the
// objects the base index lists; for an overlay path, the objects of the
// rendered files its kustomizations reach (and of the base directories a
// source include brings in). Namespaces are resolved the way kustomize and
// Flux do: the target namespace wins, then the outermost kustomization's.
func (b *builder) appliedBy(fp *fluxPlan) applied {
	var a applied
	u, fu, target := fp.Unit, fp.Spec, fp.target
	p := strings.TrimPrefix(fp.Path, "./")
	repo, src, srcUnit := b.sourceRepo(fu.Source)
	if fu.Source == fluxSystem {
		repo = catalog.RepoCluster
	}
	switch {
	case repo == catalog.RepoBase:
		rel := b.baseRelease(u)
		if rel == nil && splitsNamespace(u) {
			// A fork's directory is taken to hold what the base release the
			// cluster follows has there: a Flux unit applying only its
			// Namespace must know the rest to take it out.
			rel = indexedRelease(b.c.OpenCenter.GitOps.BaseRepo.Ref())
		}
		b.baseObjects(&a, rel, p, target)
	case strings.HasPrefix(p, b.p.Overlay+"/"):
		var includes []catalog.Include
		if src != nil {
			includes = src.Include
		}
		b.walk(&a, strings.TrimPrefix(p, b.p.Overlay+"/"), target, includes, srcUnit, u, map[string]bool{})
	}
	if target != "" {
		for i := range a.objects {
			if o := &a.objects[i]; !catalog.ClusterScoped(o.Kind) {
				o.Namespace = target
			}
		}
	}
	return a
}

func (b *builder) baseObjects(a *applied, rel *catalog.BaseRelease, dir, ns string) {
	if rel == nil {
		return
	}
	objs := rel.Dirs[dir]
	for i, o := range objs {
		obj := fluxorder.Object{Group: o.Group(), Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, CRDGroup: o.CRDGroup, File: dir, Base: &objs[i]}
		if ns != "" && !catalog.ClusterScoped(o.Kind) {
			obj.Namespace = ns
		}
		a.objects = append(a.objects, obj)
		if o.Kind == "Secret" && o.Group() == "" && !o.Generated && !slices.Contains(a.secretFiles, dir) {
			a.secretFiles = append(a.secretFiles, dir) // a Secret the base commits as a manifest
		}
	}
}

// walk collects the objects of the kustomization in dir (overlay-relative).
func (b *builder) walk(a *applied, dir, ns string, includes []catalog.Include, srcUnit, u *catalog.Unit, seen map[string]bool) {
	if seen[dir] {
		return
	}
	seen[dir] = true
	f, ok := b.files[string(b.path.join(dir, "kustomization.yaml"))]
	if !ok {
		return
	}
	pk, err := f.parsedKustomization()
	if err != nil {
		return // checkResources reports it
	}
	k := pk.file
	ns = cmpOr(ns, k.Namespace)
	buf := &b.path // walk recurses only after its last use of a key
	for _, r := range k.Resources {
		if strings.Contains(r, "://") {
			continue
		}
		key := buf.join(dir, r)
		if rf, ok := b.files[string(key)]; ok {
			start := len(a.objects)
			if rf.object != nil {
				a.objects = append(a.objects, *rf.object)
			} else {
				a.objects = appendObjects(a.objects, rf.Data)
			}
			secret := rf.Secret
			for i := start; i < len(a.objects); i++ {
				o := &a.objects[i]
				o.File, o.InPlan = rf.Path, true
				if ns != "" && !catalog.ClusterScoped(o.Kind) {
					o.Namespace = ns
				}
				secret = secret || (o.Kind == "Secret" && o.Group == "")
			}
			if secret {
				a.secretFiles = append(a.secretFiles, rf.Path)
			}
			continue
		}
		t := string(key)
		if _, ok := b.files[string(buf.append("/kustomization.yaml"))]; ok {
			b.walk(a, t, ns, includes, srcUnit, u, seen)
			continue
		}
		for _, inc := range includes {
			to := strings.TrimPrefix(b.expand(srcUnit, inc.To), b.p.Overlay+"/")
			if rest, ok := strings.CutPrefix(t, to); ok && (rest == "" || rest[0] == '/') {
				b.baseObjects(a, b.baseRelease(u), inc.From+rest, ns)
			}
		}
	}
}

// joinClean is path.Clean(path.Join(dir, r)), with one allocation instead
// of two for the plain names kustomizations list.
func joinClean(dir, r string) string {
	if plainJoin(dir, r) {
		return dir + "/" + r
	}
	return path.Clean(path.Join(dir, r))
}

// plainJoin reports whether dir + "/" + r is clean, for a clean dir.
func plainJoin(dir, r string) bool {
	return dir != "" && dir != "." && cleanInside(r)
}

// pathBuf builds the paths a plan looks up, reusing its bytes: a lookup
// with string(key) does not allocate.
type pathBuf []byte

// join sets the buffer to joinClean(dir, r).
func (p *pathBuf) join(dir, r string) []byte {
	rest, dotted := strings.CutPrefix(r, "./") // kustomizations often write ./name
	switch {
	case plainJoin(dir, r):
		*p = append(append(append((*p)[:0], dir...), '/'), r...)
	case dotted && plainJoin(dir, rest):
		*p = append(append(append((*p)[:0], dir...), '/'), rest...)
	case dotted && dir == "." && cleanInside(rest):
		*p = append((*p)[:0], rest...)
	default:
		*p = append((*p)[:0], path.Clean(path.Join(dir, r))...)
	}
	return *p
}

// append adds s to the buffer's path.
func (p *pathBuf) append(s string) []byte {
	*p = append(*p, s...)
	return *p
}

// dirOf is path.Dir for a clean path, without cleaning it again.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// kustomizationFile is the part of a kustomization.yaml that decides what
// it applies and where.
type kustomizationFile struct {
	Namespace string   `yaml:"namespace"`
	Resources []string `yaml:"resources"`
}

// appendObjects appends the objects of a rendered manifest file to dst:
// the group, kind, name and namespace of each of its documents, and the
// group a CustomResourceDefinition defines. A document that does not parse
// names none (kustomize reports it).
func appendObjects(dst []fluxorder.Object, data []byte) []fluxorder.Object {
	docs, _ := yamlfile.ParseAll("", data)
	for _, root := range docs {
		kind := scalarAt(root, "kind")
		if kind == "" {
			continue
		}
		g, _, ok := strings.Cut(scalarAt(root, "apiVersion"), "/")
		if !ok {
			g = "" // the core group: apiVersion v1
		}
		meta := valueAt(root, "metadata")
		o := fluxorder.Object{Group: g, Kind: kind, Name: scalarAt(meta, "name"), Namespace: scalarAt(meta, "namespace")}
		if kind == "CustomResourceDefinition" {
			o.CRDGroup = scalarAt(valueAt(root, "spec"), "group")
		}
		dst = append(dst, o)
	}
	return dst
}

// valueAt returns the value of key in mapping n, nil when n is no mapping
// or has no such key.
func valueAt(n *yaml.Node, key string) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var v *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v = n.Content[i+1] // the last, should the key repeat
		}
	}
	if v != nil && v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	return v
}

// scalarAt returns the scalar value of key in mapping n, "" when there is
// none, or it is null or not a scalar.
func scalarAt(n *yaml.Node, key string) string {
	v := valueAt(n, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
		return ""
	}
	return v.Value
}

// fluxPlan is an active Flux unit of the plan: what fluxorder knows of it,
// and what its Flux Kustomization needs besides.
type fluxPlan struct {
	*fluxorder.FluxUnit
	// target is its spec.targetNamespace, expanded.
	target string
	// secretFiles lists the rendered files of secret material or Secret
	// manifests it applies, and the base directories holding Secret
	// manifests: with sops on, the Flux unit decrypts (a Secret manifest in
	// git may be encrypted, and Flux applies an encrypted one only with
	// decryption on).
	secretFiles []string
	// valuesFrom is the Flux patch adding the Secrets of Spec.ValuesFrom to
	// its HelmRelease's valuesFrom, nil for none.
	valuesFrom *kustomize.Patch
}

// planFlux works out what every active Flux unit applies and has
// fluxorder order them and give each object one owner.
func (b *builder) planFlux(active []*catalog.Unit) []*fluxPlan {
	var plans []*fluxPlan
	var units []*fluxorder.FluxUnit
	for _, u := range active {
		for i := range u.FluxUnits {
			fu := &u.FluxUnits[i]
			if !fu.When.Holds(b.c) {
				continue
			}
			fp := &fluxPlan{
				FluxUnit: &fluxorder.FluxUnit{Unit: u, Spec: fu, Path: b.expandAfter("./", u, strings.TrimPrefix(fu.Path, "./"))},
				target:   b.expand(u, fu.TargetNamespace),
			}
			a := b.appliedBy(fp)
			fp.Applies, fp.secretFiles = a.objects, a.secretFiles
			if len(fu.ValuesFrom) > 0 {
				b.planValuesFrom(fp)
			}
			plans = append(plans, fp)
			units = append(units, fp.FluxUnit)
		}
	}
	for _, p := range fluxorder.Order(units, b.p.Overlay, b.externalGroups()) {
		b.errorf(p.Unit, "%s", p.Msg)
	}
	return plans
}

// externalGroups are the API groups whose CRDs the services installed
// outside opencenter (adoption_mode external) bring: those their Flux
// units would install, by the descriptors and the base index.
func (b *builder) externalGroups() map[string]bool {
	groups := map[string]bool{}
	for i := range generated.Units {
		u := &generated.Units[i]
		if !b.external[u.Name] {
			continue
		}
		rel := b.baseRelease(u)
		for _, fu := range u.FluxUnits {
			if !fu.When.Holds(b.c) {
				continue
			}
			for _, g := range fu.Provides {
				groups[g] = true
			}
			if rel == nil {
				continue
			}
			for _, o := range rel.Dirs[strings.TrimPrefix(fu.Path, "./")] {
				if o.CRDGroup != "" {
					groups[o.CRDGroup] = true
				}
			}
		}
	}
	return groups
}

// splitsNamespace reports whether a Flux unit of u applies only the
// Namespace of its path (fu.Only), ahead of the unit applying the rest.
func splitsNamespace(u *catalog.Unit) bool {
	for i := range u.FluxUnits {
		if len(u.FluxUnits[i].Only) > 0 {
			return true
		}
	}
	return false
}

// decrypts reports whether the Flux unit gets spec.decryption: when sops is
// on and it applies secret material.
func (b *builder) decrypts(fp *fluxPlan) bool {
	return b.c.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled && len(fp.secretFiles) > 0
}
