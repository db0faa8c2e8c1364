package render

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/fluxcd/pkg/apis/kustomize"
	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// object is one Kubernetes object a Flux unit applies, as the plan knows it:
// from the rendered files, or from the base index for base paths.
type object struct {
	group, kind, name, namespace string
	// crdGroup is the group a CustomResourceDefinition defines.
	crdGroup string
	// file is where the object comes from: a file of the plan (overlay
	// relative, inPlan set), or a base directory.
	file   string
	inPlan bool
	// base is the base index's entry of an object of a base path.
	base *catalog.BaseObject
}

// origin names where an object comes from, for messages.
func (b *builder) origin(o object) string {
	if o.inPlan {
		return b.p.Overlay + "/" + o.file
	}
	return o.file
}

// key identifies an object in the cluster.
type objectKey struct{ group, kind, namespace, name string }

func (o object) key() objectKey { return objectKey{o.group, o.kind, o.namespace, o.name} }

// applied is what one Flux unit applies.
type applied struct {
	objects []object
	// secretFiles lists the rendered files of secret material or Secret
	// manifests it applies, and the base directories holding Secret
	// manifests: with sops on, the Flux unit decrypts (a Secret manifest in
	// git may be encrypted, and Flux applies an encrypted one only with
	// decryption on).
	secretFiles []string
}

// builtinGroups are API groups served without a CRD, or installed by flux
// bootstrap: no Flux unit has to come first for them.
var builtinGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "policy": true, "autoscaling": true,
	"rbac.authorization.k8s.io": true, "networking.k8s.io": true, "storage.k8s.io": true,
	"apiextensions.k8s.io": true, "admissionregistration.k8s.io": true, "scheduling.k8s.io": true,
	"coordination.k8s.io": true, "discovery.k8s.io": true, "node.k8s.io": true,
	"certificates.k8s.io": true, "apiregistration.k8s.io": true,
	"source.toolkit.fluxcd.io": true, "kustomize.toolkit.fluxcd.io": true, "helm.toolkit.fluxcd.io": true,
	"notification.toolkit.fluxcd.io": true, "image.toolkit.fluxcd.io": true,
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
	// The Flux units of a plan append their objects to one list, which the
	// builder keeps for the next plan; each unit's are its part of it.
	start := len(b.objects)
	a := applied{objects: b.objects}
	u, fu, target := fp.u, fp.fu, fp.target
	p := strings.TrimPrefix(fp.path, "./")
	repo, src, srcUnit := b.sourceRepo(fu.Source)
	if fu.Source == flux_system {
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
	b.objects = a.objects
	a.objects = a.objects[start:len(a.objects):len(a.objects)]
	if target != "" {
		for i := range a.objects {
			if o := &a.objects[i]; !catalog.ClusterScoped(o.kind) {
				o.namespace = target
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
		obj := object{group: o.Group(), kind: o.Kind, name: o.Name, namespace: o.Namespace, crdGroup: o.CRDGroup, file: dir, base: &objs[i]}
		if ns != "" && !catalog.ClusterScoped(o.Kind) {
			obj.namespace = ns
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
				a.objects = appendObjects(a.objects, rf.Data, b.words)
			}
			secret := rf.Secret
			for i := start; i < len(a.objects); i++ {
				o := &a.objects[i]
				o.file, o.inPlan = rf.Path, true
				if ns != "" && !catalog.ClusterScoped(o.kind) {
					o.namespace = ns
				}
				secret = secret || (o.kind == "Secret" && o.group == "")
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

// appendObjects appends the objects of a rendered manifest file to dst. The
// renderer's own block-style YAML is read line by line, which costs a
// fraction of a parse; anything else (flow style, anchors, escapes, tabs)
// goes through the YAML parser.
func appendObjects(dst []object, data []byte, w words) []object {
	if objs, ok := scanObjects(dst, data, w); ok {
		return objs
	}
	return append(dst, parseObjects(data)...)
}

// scanObjects reads apiVersion, kind, metadata.name, metadata.namespace and
// spec.group of each document from block-style YAML whose identifying values
// are plain or simply quoted scalars; ok is false when the file is not of
// that shape. It reads only the renderer's own output, whose syntax the
// writer guarantees: hand-written YAML can hold shapes the writer never
// writes and the scan would misread (a quoted, explicit or repeated key, a
// null word for a name), so it must go through parseObjects.
func scanObjects(dst []object, data []byte, w words) (objs []object, ok bool) {
	objs, start := dst, len(dst)
	var cur object
	var apiVersion string
	var section []byte // the top-level key whose children are being read
	childIndent := 0
	flush := func() {
		if cur.kind != "" {
			g, _, found := strings.Cut(apiVersion, "/")
			if !found {
				g = ""
			}
			cur.group = g
			objs = append(objs, cur)
		}
		cur, apiVersion, section = object{}, "", nil
	}
	if bytes.IndexByte(data, '\t') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
		return dst, false
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > 0 && line[0] == ' ' && !bytes.Equal(section, []byte("metadata")) && !bytes.Equal(section, []byte("spec")) {
			continue // inside a section whose children do not name the object
		}
		if bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) {
			flush()
			continue
		}
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		indent := len(line) - len(trimmed)
		if indent > 0 && childIndent > 0 && indent != childIndent {
			continue // deeper than the section's children
		}
		key, value, isKey := bytes.Cut(trimmed, []byte(":"))
		if indent == 0 {
			if !isKey || bytes.ContainsAny(key, "\"'{[&*!?|>%@`") {
				return dst, false
			}
			section, childIndent = key, 0
			switch string(section) {
			case "apiVersion", "kind":
				v, ok := w.scalar(value)
				if !ok {
					return dst, false
				}
				if string(section) == "apiVersion" {
					apiVersion = v
				} else {
					cur.kind = v
				}
			case "metadata", "spec":
				if len(bytes.TrimSpace(value)) > 0 {
					return dst, false // flow style
				}
			}
			continue
		}
		inSpec := string(section) == "spec"
		if !inSpec && string(section) != "metadata" {
			continue
		}
		if childIndent == 0 {
			childIndent = indent
		}
		if indent != childIndent || !isKey {
			continue
		}
		if inSpec && string(key) == "group" || !inSpec && (string(key) == "name" || string(key) == "namespace") {
			v, ok := w.scalar(value)
			if !ok {
				return dst, false
			}
			switch {
			case inSpec:
				cur.crdGroup = v
			case string(key) == "name":
				cur.name = v
			default:
				cur.namespace = v
			}
		}
	}
	flush()
	for i := start; i < len(objs); i++ {
		if objs[i].kind != "CustomResourceDefinition" {
			objs[i].crdGroup = ""
		}
	}
	return objs, true
}

// words interns the strings read from a plan's manifests: kinds, API
// versions, namespaces and names recur across its files. A nil words
// interns nothing.
type words map[string]string

// scalar reads a plain or quoted scalar without escapes; ok is false for
// anything else.
func (w words) scalar(v []byte) (string, bool) {
	b, ok := scalarBytes(v)
	if !ok {
		return "", false
	}
	if s, ok := w[string(b)]; ok {
		return s, true
	}
	s := string(b)
	if w != nil {
		w[s] = s
	}
	return s, true
}

// scalarBytes is words.scalar without the string.
func scalarBytes(v []byte) ([]byte, bool) {
	v = bytes.TrimSpace(v)
	if i := bytes.Index(v, []byte(" #")); i >= 0 {
		v = bytes.TrimSpace(v[:i])
	}
	if len(v) == 0 {
		return nil, false
	}
	switch v[0] {
	case '"':
		if len(v) < 2 || v[len(v)-1] != '"' || bytes.ContainsAny(v[1:len(v)-1], "\\\"") {
			return nil, false
		}
		return v[1 : len(v)-1], true
	case '\'':
		if len(v) < 2 || v[len(v)-1] != '\'' || bytes.IndexByte(v[1:len(v)-1], '\'') >= 0 {
			return nil, false
		}
		return v[1 : len(v)-1], true
	case '{', '[', '&', '*', '!', '|', '>', '%', '@', '`':
		return nil, false
	}
	return v, true
}

// parseObjects is manifestObjects through the YAML parser.
func parseObjects(data []byte) []object {
	var out []object
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Metadata   struct {
				Name      string `yaml:"name"`
				Namespace string `yaml:"namespace"`
			} `yaml:"metadata"`
			Spec struct {
				Group string `yaml:"group"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			break
		}
		if doc.Kind == "" {
			continue
		}
		g, _, ok := strings.Cut(doc.APIVersion, "/")
		if !ok {
			g = ""
		}
		o := object{group: g, kind: doc.Kind, name: doc.Metadata.Name, namespace: doc.Metadata.Namespace}
		if doc.Kind == "CustomResourceDefinition" {
			o.crdGroup = doc.Spec.Group
		}
		out = append(out, o)
	}
	return out
}

// fluxPlan is an active Flux unit with what it applies.
type fluxPlan struct {
	u  *catalog.Unit
	fu *catalog.FluxUnit
	// path and target are its spec.path ("./" first) and
	// spec.targetNamespace, expanded.
	path, target string
	applied      applied
	// extraDeps are the Flux units it must follow that its dependsOn chain
	// misses: the providers of the CRDs it uses, the owners of the objects
	// it leaves to them (shared).
	extraDeps []string
	// shared are the objects of its base path that it leaves to another
	// active Flux unit, which applies them as its own: what the base shares
	// from another directory, what a Flux unit applying only some kinds of
	// the same path takes (fu.Only), and, for that unit, the rest. They are
	// taken out of this unit's build (spec.patches), so that each object
	// has one owner.
	shared []sharedObject
	// valuesFrom is the Flux patch adding the Secrets of fu.ValuesFrom to
	// its HelmRelease's valuesFrom, nil for none.
	valuesFrom *kustomize.Patch
}

// sharedObject is an object a Flux unit leaves to its owner.
type sharedObject struct {
	object
	// owner is the owner's Flux unit, which this one follows; "" for what
	// a Flux unit of fu.Only leaves to the unit applying the rest of its
	// path, which follows it.
	owner string
}

// planFlux works out what every active Flux unit applies, orders each after
// the Flux units providing the CRDs of the objects it applies, and checks
// that no object has two owners and that secret material is decrypted.
func (b *builder) planFlux(active []*catalog.Unit) []*fluxPlan {
	units := 0
	for _, u := range active {
		units += len(u.FluxUnits)
	}
	plans := make([]*fluxPlan, 0, units)
	byName := make(map[string]*fluxPlan, units)
	for _, u := range active {
		for i := range u.FluxUnits {
			fu := &u.FluxUnits[i]
			if !fu.When.Holds(b.c) {
				continue
			}
			fp := &fluxPlan{u: u, fu: fu, path: b.expandAfter("./", u, strings.TrimPrefix(fu.Path, "./")), target: b.expand(u, fu.TargetNamespace)}
			fp.applied = b.appliedBy(fp)
			if len(fu.ValuesFrom) > 0 {
				b.planValuesFrom(fp)
			}
			plans = append(plans, fp)
			byName[fu.Name] = fp
		}
	}
	leaveShared(plans)
	providers := map[string]string{} // API group -> Flux unit
	provide := func(g, name string) {
		if prev, ok := providers[g]; ok && prev != name {
			b.errorf(byName[name].u, "%s and %s both install the CRDs of API group %s", prev, name, g)
			return
		}
		providers[g] = name
	}
	for _, fp := range plans {
		for _, g := range fp.fu.Provides {
			provide(g, fp.fu.Name)
		}
		for _, o := range fp.applied.objects {
			if o.crdGroup != "" {
				provide(o.crdGroup, fp.fu.Name)
			}
		}
	}
	seen := map[string]bool{} // one set, cleared for each Flux unit
	closure := func(fp *fluxPlan) map[string]bool {
		clear(seen)
		var visit func(n string)
		visit = func(n string) {
			if seen[n] {
				return
			}
			seen[n] = true
			if d := byName[n]; d != nil {
				for _, dep := range d.fu.DependsOn {
					visit(dep)
				}
			}
		}
		for _, d := range fp.fu.DependsOn {
			visit(d)
		}
		return seen
	}
	n := 0
	for _, fp := range plans {
		n += len(fp.applied.objects)
	}
	owners := make(map[objectKey]*fluxPlan, n)
	missing := map[string]bool{} // the groups without a CRD a Flux unit has been told of
	// after orders fp after the provider of API group g, and reports, once
	// per group, that g has none.
	after := func(fp *fluxPlan, before map[string]bool, g string) (unprovided bool) {
		p, ok := providers[g]
		switch {
		case !ok && !missing[g]:
			missing[g] = true
			return true
		case ok:
			fp.follow(before, p)
		}
		return false
	}
	for _, fp := range plans {
		before := closure(fp)
		clear(missing)
		for _, o := range fp.shared {
			// Directly, even when it follows the owner through another
			// unit: Flux checks only a direct dependency's latest spec, and
			// a borrower that let an object go before its owner took it
			// over would delete it (its labels would still be the
			// borrower's).
			if o.owner != "" && !slices.Contains(fp.fu.DependsOn, o.owner) {
				fp.dependOn(o.owner)
			}
		}
		for _, o := range fp.applied.objects {
			if !builtinGroups[o.group] && after(fp, before, o.group) {
				b.errorf(fp.u, "%s applies %s %s (%s, API group %s), whose CRD no active unit installs: enable the service that provides it",
					fp.fu.Name, o.kind, o.name, b.origin(o), o.group)
			}
		}
		for _, g := range fp.fu.Needs {
			if after(fp, before, g) {
				b.errorf(fp.u, "%s's chart creates custom resources of API group %s, and Helm refuses to install it before their CRDs exist: enable %s",
					fp.fu.Name, g, providerService(g))
			}
		}
		for _, g := range fp.fu.Wants {
			after(fp, before, g) // without a provider, the chart does without
		}
		slices.Sort(fp.extraDeps)
		for _, o := range fp.applied.objects {
			if o.kind == "CustomResourceDefinition" {
				continue // CRDs shared by charts are applied with server-side apply by design
			}
			if prev, dup := owners[o.key()]; dup && prev.fu.Name != fp.fu.Name {
				b.errorf(fp.u, "%s %s is applied by both %s (%s) and %s (%s): an object has one owner",
					o.kind, strings.TrimPrefix(o.namespace+"/"+o.name, "/"), prev.fu.Name, b.origin(prev.sourceOf(o.key())), fp.fu.Name, b.origin(o))
				continue
			}
			owners[o.key()] = fp
		}
	}
	return plans
}

// follow orders fp after the Flux unit named owner, unless it is fp or
// already comes before fp (before).
func (fp *fluxPlan) follow(before map[string]bool, owner string) {
	if !before[owner] {
		fp.dependOn(owner)
	}
}

// dependOn adds the Flux unit named owner to fp's dependsOn, unless it is
// fp or there already.
func (fp *fluxPlan) dependOn(owner string) {
	if owner != fp.fu.Name && !slices.Contains(fp.extraDeps, owner) {
		fp.extraDeps = append(fp.extraDeps, owner)
	}
}

// leaveShared takes out of each base Flux unit the objects that its
// directory's kustomization lists from another base directory's file
// (../sources/charts.yaml) when an active Flux unit builds that directory
// and applies the same object: that unit owns it, and the borrower follows
// it. Two units applying one object would relabel it on every
// reconciliation, and pruning either would delete it from under the other.
func leaveShared(plans []*fluxPlan) {
	var only []*fluxPlan // the few Flux units of fu.Only
	for _, fp := range plans {
		if len(fp.fu.Only) > 0 {
			only = append(only, fp)
		}
	}
	for _, fp := range plans {
		kept := fp.applied.objects[:0]
		for _, o := range fp.applied.objects {
			owner := homeOwner(plans, fp, o)
			if owner == nil {
				owner = onlyOwner(only, fp, o)
			}
			switch {
			case owner != nil:
				fp.shared = append(fp.shared, sharedObject{o, owner.fu.Name})
			case len(fp.fu.Only) > 0 && o.base != nil && !slices.Contains(fp.fu.Only, o.kind):
				fp.shared = append(fp.shared, sharedObject{o, ""}) // the rest of the path, to the unit applying it
			default:
				kept = append(kept, o)
			}
		}
		fp.applied.objects = kept
	}
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

// onlyOwner returns the Flux unit among only (those of fu.Only) that builds
// fp's path from the same source and applies o's kind: the unit that owns
// o, when fp applies the rest of the path.
func onlyOwner(only []*fluxPlan, fp *fluxPlan, o object) *fluxPlan {
	if o.base == nil || len(fp.fu.Only) > 0 {
		return nil
	}
	for _, h := range only {
		if h.path == fp.path && h.fu.Source == fp.fu.Source && slices.Contains(h.fu.Only, o.kind) {
			return h
		}
	}
	return nil
}

// homeOwner returns the plan that builds the home directory of o, an object
// of fp's base path, and applies o itself; nil when there is none.
func homeOwner(plans []*fluxPlan, fp *fluxPlan, o object) *fluxPlan {
	if o.base == nil || o.base.Home == "" {
		return nil
	}
	for _, h := range plans {
		if h == fp || strings.TrimPrefix(h.path, "./") != o.base.Home {
			continue
		}
		for _, ho := range h.applied.objects {
			if ho.base != nil && ho.base.Home == "" && ho.key() == o.key() {
				return h
			}
		}
	}
	return nil
}

// sourceOf returns the object of the plan with key k.
func (fp *fluxPlan) sourceOf(k objectKey) object {
	for _, o := range fp.applied.objects {
		if o.key() == k {
			return o
		}
	}
	return object{file: "?"}
}

// decrypts reports whether the Flux unit gets spec.decryption: when sops is
// on and it applies secret material.
func (b *builder) decrypts(fp *fluxPlan) bool {
	return b.c.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled && len(fp.applied.secretFiles) > 0
}

// providerService names, for a message, the unit whose Flux unit provides
// API group g: the service to enable.
func providerService(g string) string {
	for i := range generated.Units {
		for _, fu := range generated.Units[i].FluxUnits {
			if slices.Contains(fu.Provides, g) {
				return generated.Units[i].Name + ", which installs them"
			}
		}
	}
	return "the service that installs them" // go generate holds every need to a provider
}
