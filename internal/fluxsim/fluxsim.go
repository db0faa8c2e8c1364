package fluxsim

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// Repo is a git repository the simulation can read offline.
type Repo struct {
	// URL is the repository as GitRepository objects name it; URLs are
	// compared after NormalizeURL.
	URL string
	// Tree, when not nil, is the repository's content at any ref (the
	// cluster repository, rendered in memory).
	Tree fluxbuild.Tree
	// Dir, when Tree is nil, is a git checkout (or bare git directory),
	// read at the ref each GitRepository names.
	Dir string
	// Indexed are the commits, by tag or branch name, that opencenter's
	// index of the repository was extracted at: the render checked the
	// base's paths and objects against them, so a checkout whose ref is at
	// another commit is noted.
	Indexed map[string]string
}

// Cluster is what one simulation starts from.
type Cluster struct {
	// Name of the cluster, for findings.
	Name string
	// URL is the cluster's repository, where flux bootstrap points the
	// flux-system GitRepository.
	URL string
	// Path is flux bootstrap's --path: the directory the flux-system
	// Kustomization builds.
	Path string
	// Repos are the repositories available offline; a GitRepository
	// whose URL is none of them is not checked.
	Repos []Repo
	// Providers maps an API group to the Flux units (Kustomization names)
	// that install its CRDs without a CRD manifest a build would show,
	// typically through a HelmRelease's chart. Providers absent from the
	// cluster are ignored. CRD manifests found in builds are added.
	Providers map[string][]string
	// ClusterScoped, when not nil, reports the custom resource kinds that
	// have no namespace, which kustomize cannot know (their CRDs come with
	// charts): a namespace a build gives one is ignored by the API server.
	ClusterScoped func(kind string) bool
	// ExistingSecrets are Secrets the cluster has outside the repository
	// (the config names them): a reference to one is not a finding, and
	// its content is not known.
	ExistingSecrets []types.NamespacedName
	// ExistingClusterIssuers are cert-manager ClusterIssuers the cluster
	// has outside the repository (a cert-manager installed outside
	// opencenter): an annotation naming one is not a finding.
	ExistingClusterIssuers []string
}

// Finding is one problem, or one thing the simulation could not check.
type Finding struct {
	// Cluster, Unit (the Flux Kustomization) and File (the file to look at:
	// the one defining the Flux object at fault, or the base file at fault)
	// say where.
	Cluster, Unit, File string
	// Message says what.
	Message string
}

// String formats the finding as "cluster: unit: file: message".
func (f Finding) String() string {
	return f.Cluster + ": " + f.Unit + ": " + f.File + ": " + f.Message
}

func compareFindings(a, b Finding) int {
	return cmp.Or(cmp.Compare(a.Cluster, b.Cluster), cmp.Compare(a.Unit, b.Unit),
		cmp.Compare(a.File, b.File), cmp.Compare(a.Message, b.Message))
}

// Report is the outcome of simulating one cluster.
type Report struct {
	// Cluster is the cluster's name.
	Cluster string
	// Findings are what would make Flux fail or misbehave, sorted.
	Findings []Finding
	// Info lists what was not checked offline, sorted.
	Info []Finding
	// Units counts the Flux Kustomizations found (bootstrap's included);
	// Built those whose path built; Unchecked those whose source is not
	// available offline, or that are suspended.
	Units, Built, Unchecked int
	// Sources counts the GitRepositories found; FromCheckout those read
	// from a git checkout; SourcesUnchecked those not available offline.
	Sources, FromCheckout, SourcesUnchecked int
	// Remote counts the remote kustomize resources left out of builds.
	Remote int
	// Applied lists every Flux Kustomization found (bootstrap's included),
	// sorted by name, with what each applies: for tools that compare two
	// states of a cluster (fluxdiff).
	Applied []Unit
}

// UnitState is how far the simulation got with a Flux unit.
type UnitState string

// The states of a Flux unit at the end of a simulation.
const (
	// Built: its path built, and Objects are what it applies.
	Built UnitState = "built"
	// Failed: its source or its build failed (a finding says why).
	Failed UnitState = "failed"
	// NotChecked: its source is not available offline, or it is suspended.
	NotChecked UnitState = "not checked"
)

// Unit is one Flux Kustomization and what its build applies.
type Unit struct {
	// Name is the unit as findings name it (namespace/name outside
	// flux-system); File is the file that defines it.
	Name, File string
	// State says whether it built; Reason says why not.
	State  UnitState
	Reason string
	// Source is the URL of its GitRepository, when known.
	Source string
	// Objects are what its build applies, in build order.
	Objects []fluxbuild.Object
	// Remote are the remote resources left out of its build, as "file url".
	Remote []string
}

// Summary is the report in one line.
func (r *Report) Summary() string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, one)
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	return fmt.Sprintf("%s: %d of %s built (%d not checked offline), %s (%d from the base checkout, %d not checked offline), %s not checked offline, %s",
		r.Cluster, r.Built, plural(r.Units, "Flux unit", "Flux units"), r.Unchecked,
		plural(r.Sources, "GitRepository", "GitRepositories"), r.FromCheckout, r.SourcesUnchecked,
		plural(r.Remote, "remote resource", "remote resources"), plural(len(r.Findings), "finding", "findings"))
}

// Simulator runs simulations. It reads each checkout at each ref once,
// however many clusters and GitRepositories ask for it, builds each path
// of it with the same targetNamespace and patches once, and is safe for
// concurrent use. The zero value is ready.
type Simulator struct {
	mu       sync.Mutex
	snaps    map[[2]string]*snapshot
	builders map[string]*sharedBuilder
	builds   map[[4]string]*sharedBuild
}

// applied is an object as the cluster would get it, with who applies it.
type applied struct {
	fluxbuild.Object
	// key is namespace/name; ns the namespace.
	key, ns string
	// unit applies the object; nil for what flux bootstrap applies.
	unit *unit
}

// gitURL is the pattern of GitRepository spec.url in the CRD.
var gitURL = regexp.MustCompile(`^(http|https|ssh)://.*$`)

// Flux API groups and kinds the simulation follows.
const (
	kustomizeGroup = "kustomize.toolkit.fluxcd.io"
	sourceGroup    = "source.toolkit.fluxcd.io"
	helmGroup      = "helm.toolkit.fluxcd.io"
)

// unit state.
type unitState int

const (
	unitPending   unitState = iota
	unitBuilt               // the path built
	unitFailed              // the source or the build failed (a finding says why)
	unitUnchecked           // the source is not available offline, or the unit is suspended
)

// unit is one Flux Kustomization.
type unit struct {
	obj     *applied
	spec    kustomizev1.KustomizationSpec
	state   unitState
	objects []*applied
	// why says why the unit did not build; remote lists the remote
	// resources left out of its build, as "file url".
	why    string
	remote []string
}

// name is how findings name the unit: its name, with its namespace when
// that is not flux-system.
func (u *unit) name() string {
	if u.obj.ns == "flux-system" || u.obj.ns == "" {
		return u.obj.Name
	}
	return u.obj.key
}

// sim is one cluster's simulation.
type sim struct {
	sim      *Simulator
	c        Cluster
	r        *Report
	units    map[string]*unit // by namespace/name
	sources  map[string]*source
	builders map[string]*fluxbuild.Builder
	// objects are everything applied, in order.
	objects []*applied
	// remote holds the remote resources left out, as "file url".
	remote map[string]bool
}

// Run simulates Flux on one cluster.
func (s *Simulator) Run(c Cluster) *Report {
	x := &sim{sim: s, c: c, r: &Report{Cluster: c.Name},
		units: map[string]*unit{}, sources: map[string]*source{}, builders: map[string]*fluxbuild.Builder{}, remote: map[string]bool{}}
	x.bootstrap()
	x.reconcile()
	x.check()
	x.applied()
	slices.SortFunc(x.r.Findings, compareFindings)
	x.r.Findings = slices.Compact(x.r.Findings)
	slices.SortFunc(x.r.Info, compareFindings)
	x.r.Info = slices.Compact(x.r.Info)
	return x.r
}

// bootstrap adds what `flux bootstrap git --path` puts in the cluster: the
// flux-system GitRepository and the Kustomization building the path.
func (s *sim) bootstrap() {
	file := path.Join(s.c.Path, "flux-system", "gotk-sync.yaml")
	s.add(nil, fluxbuild.Object{
		APIVersion: sourceGroup + "/v1", Kind: "GitRepository", Name: "flux-system", Namespace: "flux-system", File: file,
		Body: map[string]any{"spec": map[string]any{
			"url": s.c.URL, "secretRef": map[string]any{"name": "flux-system"}, "ref": map[string]any{"branch": "main"},
		}},
	})
	s.add(nil, fluxbuild.Object{
		APIVersion: kustomizeGroup + "/v1", Kind: "Kustomization", Name: "flux-system", Namespace: "flux-system", File: file,
		Body: map[string]any{"spec": map[string]any{
			"path": "./" + s.c.Path, "prune": true,
			"sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"},
		}},
	})
}

// add records an object applied by u (nil: bootstrap) and follows the Flux
// objects among them.
func (s *sim) add(u *unit, o fluxbuild.Object) {
	a := &applied{Object: o, key: o.Namespace + "/" + o.Name, ns: o.Namespace, unit: u}
	s.objects = append(s.objects, a)
	if u != nil {
		u.objects = append(u.objects, a)
	}
	switch {
	case o.Group() == kustomizeGroup && o.Kind == "Kustomization":
		if _, dup := s.units[a.key]; dup {
			return // two owners: reported by the owner check
		}
		nu := &unit{obj: a}
		if err := decode(o.Body, &nu.spec); err != nil {
			s.finding(s.owner(a), o.File, "Kustomization %s: %v", a.key, err)
			nu.state, nu.why = unitFailed, err.Error()
		}
		s.units[a.key] = nu
	case o.Group() == sourceGroup && o.Kind == "GitRepository":
		if _, dup := s.sources[a.key]; dup {
			return
		}
		src := &source{obj: a}
		if err := decode(o.Body, &src.spec); err != nil {
			s.finding(s.owner(a), o.File, "GitRepository %s: %v", a.key, err)
			src.state, src.resolved = sourceFailed, true
		} else if !gitURL.MatchString(src.spec.URL) {
			s.finding(s.owner(a), o.File, "GitRepository %s: url %s: the API server refuses it (Flux takes http://, https:// and ssh:// URLs)", a.key, src.spec.URL)
		} else if strings.HasPrefix(src.spec.URL, "ssh://") && src.spec.SecretRef == nil {
			// Reported, but the simulation goes on so that the rest is checked too.
			s.finding(s.owner(a), o.File, "GitRepository %s: ssh URL %s without spec.secretRef: Flux has no anonymous ssh and never fetches it",
				a.key, src.spec.URL)
		}
		s.sources[a.key] = src
	}
}

// decode reads an object's body into a Flux API type.
func decode(body map[string]any, into any) error {
	spec, _ := body["spec"].(map[string]any)
	data, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("spec: %v", err)
	}
	return nil
}

// owner names the unit applying a, for findings.
func (s *sim) owner(a *applied) string {
	if a.unit == nil {
		return "flux-system"
	}
	return a.unit.name()
}

func (s *sim) finding(unit, file, format string, args ...any) {
	s.r.Findings = append(s.r.Findings, Finding{Cluster: s.c.Name, Unit: unit, File: file, Message: fmt.Sprintf(format, args...)})
}

func (s *sim) info(unit, file, format string, args ...any) {
	s.r.Info = append(s.r.Info, Finding{Cluster: s.c.Name, Unit: unit, File: file, Message: fmt.Sprintf(format, args...)})
}

// reconcile builds every Kustomization whose source can be resolved, in
// rounds, until a round makes no progress: a build can yield the sources
// and Kustomizations of the next round.
func (s *sim) reconcile() {
	for progress := true; progress; {
		progress = false
		for _, k := range slices.Sorted(maps.Keys(s.units)) {
			u := s.units[k]
			if u.state == unitPending && s.reconcileUnit(u) {
				progress = true
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.units)) {
		u := s.units[k]
		if u.state != unitPending {
			continue
		}
		ref := u.spec.SourceRef
		key := cmpOr(ref.Namespace, u.obj.ns) + "/" + ref.Name
		if src, ok := s.sources[key]; ok && !src.resolved {
			u.why = fmt.Sprintf("sourceRef GitRepository %s: %s", key, s.missingInclude(src))
		} else {
			u.why = fmt.Sprintf("sourceRef %s %s: no build produces it", ref.Kind, key)
		}
		s.finding(u.name(), u.obj.File, "%s", u.why)
		u.state = unitFailed
	}
	// Sources no Kustomization uses (a HelmRelease's chart source, say) are
	// fetched by source-controller all the same.
	used := map[*source]bool{}
	for _, u := range s.units {
		used[s.sources[cmpOr(u.spec.SourceRef.Namespace, u.obj.ns)+"/"+u.spec.SourceRef.Name]] = true
	}
	for _, k := range slices.Sorted(maps.Keys(s.sources)) {
		src := s.sources[k]
		s.resolve(src, map[*source]bool{})
		switch {
		case used[src]:
		case !src.resolved:
			s.finding(s.owner(src.obj), src.obj.File, "GitRepository %s: %s", src.obj.key, s.missingInclude(src))
		case src.state == sourceUnchecked:
			s.info(s.owner(src.obj), src.obj.File, "not checked offline: %s", src.reason)
		}
	}
	for _, u := range s.units {
		s.r.Units++
		switch u.state {
		case unitBuilt:
			s.r.Built++
		case unitUnchecked:
			s.r.Unchecked++
		}
	}
	for _, src := range s.sources {
		s.r.Sources++
		if src.fromCheckout {
			s.r.FromCheckout++
		}
		if src.state == sourceUnchecked {
			s.r.SourcesUnchecked++
		}
	}
}

// missingInclude explains why a source never resolved: an include names
// a GitRepository no build produces.
func (s *sim) missingInclude(src *source) string {
	for _, inc := range src.spec.Include {
		key := src.obj.ns + "/" + inc.GitRepositoryRef.Name
		if other, ok := s.sources[key]; !ok {
			return fmt.Sprintf("spec.include names GitRepository %s, which no build produces", key)
		} else if !other.resolved {
			return s.missingInclude(other)
		}
	}
	return "cannot be resolved"
}

// reconcileUnit builds u if its source is known; it reports whether u is
// done (built, failed or not checked).
func (s *sim) reconcileUnit(u *unit) bool {
	name, file := u.name(), u.obj.File
	if u.spec.Suspend {
		u.state, u.why = unitUnchecked, "suspended: not built"
		s.info(name, file, "%s", u.why)
		return true
	}
	ref := u.spec.SourceRef
	key := cmpOr(ref.Namespace, u.obj.ns) + "/" + ref.Name
	if ref.Kind != sourcev1.GitRepositoryKind {
		u.state, u.why = unitUnchecked, fmt.Sprintf("not checked offline: sourceRef %s %s", ref.Kind, key)
		s.info(name, file, "%s", u.why)
		return true
	}
	src, ok := s.sources[key]
	if !ok {
		return false
	}
	s.resolve(src, map[*source]bool{})
	switch {
	case !src.resolved:
		return false
	case src.state == sourceUnchecked:
		u.state, u.why = unitUnchecked, "not checked offline: "+src.reason
		s.info(name, file, "%s", u.why)
		return true
	case src.state == sourceFailed:
		u.state, u.why = unitFailed, cmpOr(src.reason, fmt.Sprintf("GitRepository %s cannot be resolved", src.obj.key))
		return true
	}
	for _, f := range []struct {
		set  bool
		what string
	}{
		{len(u.spec.Images) > 0, "spec.images"},
		{len(u.spec.Components) > 0, "spec.components"}, {u.spec.NamePrefix != "" || u.spec.NameSuffix != "", "spec.namePrefix/nameSuffix"},
		{u.spec.PostBuild != nil, "spec.postBuild"},
	} {
		if f.set {
			s.info(name, file, "%s not simulated: the build is without it", f.what)
		}
	}

	dir := path.Clean(strings.TrimPrefix(u.spec.Path, "./"))
	if !src.builder.Has(dir) {
		u.state, u.why = unitFailed, fmt.Sprintf("spec.path %s does not exist in GitRepository %s (%s)", cmpOr(u.spec.Path, "."), src.obj.key, src.desc)
		s.finding(name, file, "%s", u.why)
		return true
	}
	res, err := s.sim.build(src, dir, u.spec.TargetNamespace, u.spec.Patches)
	if err != nil {
		u.state, u.why = unitFailed, err.Error()
		s.finding(name, file, "%v", err)
		return true
	}
	u.state = unitBuilt
	for _, o := range res.Objects {
		s.add(u, o)
	}
	for _, r := range res.Remote {
		d, url, _ := strings.Cut(r, ": ")
		f := kustomizationFile(src.tree, d)
		s.remote[f+" "+url] = true
		u.remote = append(u.remote, f+" "+url)
		s.r.Remote = len(s.remote)
		s.info(name, f, "remote resource %s not checked offline", url)
	}
	return true
}

// kustomizationFile names the kustomization file of dir in tree.
func kustomizationFile(tree fluxbuild.Tree, dir string) string {
	for _, n := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		if _, ok := tree[path.Join(dir, n)]; ok {
			return path.Join(dir, n)
		}
	}
	return dir
}

// applied fills the report's Applied: every unit, sorted by name.
func (s *sim) applied() {
	for _, k := range slices.Sorted(maps.Keys(s.units)) {
		u := s.units[k]
		out := Unit{Name: u.name(), File: u.obj.File, Reason: u.why, Remote: slices.Sorted(slices.Values(u.remote))}
		switch u.state {
		case unitBuilt:
			out.State = Built
		case unitUnchecked:
			out.State = NotChecked
		default:
			out.State = Failed
		}
		ref := u.spec.SourceRef
		if src, ok := s.sources[cmpOr(ref.Namespace, u.obj.ns)+"/"+ref.Name]; ok {
			out.Source = src.spec.URL
		}
		out.Objects = make([]fluxbuild.Object, len(u.objects))
		for i, a := range u.objects {
			out.Objects[i] = a.Object
		}
		s.r.Applied = append(s.r.Applied, out)
	}
	slices.SortFunc(s.r.Applied, func(a, b Unit) int { return strings.Compare(a.Name, b.Name) })
}
