package plan

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/escape"
	"github.com/opencenter-dev/opencenter/internal/fluxorder"
	"github.com/opencenter-dev/opencenter/internal/localoverlay"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// Options change what a plan contains.
type Options struct {
	// AllowPlaintextSecrets lets secret material into the tree (with a warning).
	AllowPlaintextSecrets bool
	// Repo is the repository the plan is for, read for the units' user-owned
	// local/ directories; "" for none.
	Repo string
	// DataKeys, shared by the plans of one render, gives the secret files of
	// all its clusters one data key per set of sops recipients, so a fleet
	// pays the age encryption of a data key once per recipient, not once
	// per cluster. Nil: the plan makes its own.
	DataKeys *sops.DataKeys
	// Keys are the user's age keys, which open the encrypted files on disk
	// of a config whose secrets are plaintext, to tell whether they changed.
	// Nil: none.
	Keys *sops.Keyring
	// PolicyRecipients are the recipients of the config's own .sops.yaml
	// creation rule, for the overlay's sops rules that name none (and the
	// one rule of an overlay whose config lists no rules).
	PolicyRecipients []string
}

// file is one rendered file as the builder works on it.
type file struct {
	overlay.File
	// kustomization is a kustomization.yaml as the plan reads it: computed
	// with the file, or parsed once its text is final.
	kustomization *parsedKustomization
	// nextInDir links the plan's files in one directory (builder.byDir).
	nextInDir *file
	// object is the file's one object when the builder knows it without
	// reading the text (rendered.object), nil otherwise.
	object *fluxorder.Object
}

// UnitStatus says whether a unit is active in a plan, and why not.
type UnitStatus struct {
	Unit   *catalog.Unit
	Active bool
	// Reason explains an inactive unit: its gate, its active_with, or a missing requirement.
	Reason string
	// External marks an inactive unit whose service is installed outside
	// opencenter (adoption_mode external): what requires or follows it
	// takes it as there.
	External bool
}

// Plan is a whole overlay tree in memory, validated.
type Plan struct {
	// Tree is the overlay: its directory in the repository and its files.
	overlay.Tree
	// Config is the config file the plan was built from.
	Config string
	// Cluster is the cluster name.
	Cluster string
	// Units lists every unit with its status, sorted by name.
	Units []UnitStatus
	// SecretFiles lists files carrying secret material in plaintext (only
	// with AllowPlaintextSecrets).
	SecretFiles []string
	// Warnings are problems that do not stop a render, such as a sops rule
	// that matches no rendered file.
	Warnings []string
	// ExistingSecrets are the Secrets outside the repository that the
	// plan's HelmReleases read values from, as the config names them (an
	// existing_secret field): the cluster must have them.
	ExistingSecrets []types.NamespacedName
}

type builder struct {
	f       *config.File
	c       *config.Config
	o       Options
	p       *Plan
	diags   diag.List
	status  map[string]*UnitStatus
	files   map[string]*file
	byDir   map[string]*file // the last file added to each directory, for the aggregates
	flux    map[string]bool  // active Flux unit names
	fluxOf  map[string]*catalog.Unit
	sources map[string]bool // active source names
	// external names the units whose service is installed outside
	// opencenter (adoption_mode external): not rendered, and taken as
	// there by whatever requires or follows them.
	external map[string]bool
	include  map[string]bool // overlay dirs provided by source includes
	// withheld holds secret files refused for lack of --allow-plaintext-secrets,
	// so that kustomizations listing them do not fail a second time.
	withheld map[string]bool
	// rules are the sops rules' path regexps, compiled once.
	rules []*sops.PathPattern
	// decrypt is the spec.decryption of the Flux units that decrypt,
	// made once per plan (decryption).
	decrypt *kustomizev1.Decryption
	// partLabels caches the labels of each part's Flux objects.
	partLabels map[string]map[string]string
	// local holds what the units' local/ directories hold, by unit.
	local map[string]localoverlay.Local
	// localDirs are the other overlay directories a Flux unit applies
	// whose local/ holds a kustomization: whether it is a Component.
	localDirs map[string]bool
	// order is the plan's files in the order they were added.
	order []*file
	// infos, outs and rendered hold what each active unit's templates see,
	// and what it renders (renderUnits).
	infos    []catalog.Info
	outs     []unitOutput
	rendered []rendered
	// durations are gitops.flux's, parsed once for the plan's Flux objects.
	durations *fluxDurations
	// newOverlay: the overlay does not exist on disk yet (readLocal looked),
	// so there is nothing of it to read back.
	newOverlay bool
	// escaped says which of the user's files a symbolic link would have
	// been read through out of the repository: refused (overlay.UnsafeError).
	escaped []string
	// path is the buffer of the plan's sequential path lookups.
	path pathBuf
}

// Build renders the config's overlay in memory and validates it. f must be
// checked (config.Load: defaults applied, validated). The error is a
// diag.List naming the config file.
func Build(f *config.File, o Options) (*Plan, error) {
	return newBuilder(f, o).build()
}

// build is Build with a builder.
func (b *builder) build() (*Plan, error) {
	c := b.c
	b.selectUnits()
	active := b.activeUnits()
	for _, u := range active {
		for _, fu := range u.FluxUnits {
			if fu.When.Holds(c) {
				b.flux[fu.Name] = true
			}
		}
		for _, s := range u.Sources {
			b.sources[s.Name] = true
		}
	}
	b.checkReleases(active)
	b.readLocal(active)
	b.renderUnits(active)
	b.listLocal()
	b.mergeLocalValues(active)
	b.builtins(active, false)
	b.fluxUnits(b.planFlux(active))
	b.builtins(active, true)
	b.validate(active)
	b.encryptSecrets()
	if len(b.escaped) > 0 {
		slices.Sort(b.escaped)
		return nil, &overlay.UnsafeError{Msg: strings.Join(slices.Compact(b.escaped), "\n")}
	}
	if len(b.diags) > 0 {
		return nil, b.diags.Err()
	}
	sorted := slices.SortedFunc(slices.Values(b.order), func(a, b *file) int { return strings.Compare(a.Path, b.Path) })
	b.p.Files = make([]overlay.File, len(sorted))
	for i, f := range sorted {
		b.p.Files[i] = f.File
		if f.Secret && f.Recipients == nil {
			b.p.SecretFiles = append(b.p.SecretFiles, f.Path)
		}
	}
	return b.p, nil
}

func newBuilder(f *config.File, o Options) *builder {
	cluster := f.Config.OpenCenter.Cluster.ClusterName
	b := &builder{
		status:    map[string]*UnitStatus{},
		files:     make(map[string]*file, 256), // a 25-service cluster has 180 files
		byDir:     make(map[string]*file, 128),
		flux:      map[string]bool{},
		fluxOf:    map[string]*catalog.Unit{},
		sources:   map[string]bool{},
		external:  map[string]bool{},
		include:   map[string]bool{},
		withheld:  map[string]bool{},
		local:     map[string]localoverlay.Local{},
		localDirs: map[string]bool{},
	}
	b.f, b.c, b.o = f, withSOPSDefaults(f.Config, o.PolicyRecipients), o
	b.p = &Plan{Tree: overlay.Tree{Overlay: overlay.Dir(cluster)}, Config: f.Name, Cluster: cluster}
	b.durations = parseFluxDurations(&f.Config.OpenCenter.GitOps.Flux)
	b.rules = compileRules(&b.c.OpenCenter.GitOps.OverlayUnits.SOPS)
	b.sources[fluxSystem] = true
	return b
}

// Units returns the status of every unit for a checked config (see
// config.Load), sorted by name, without rendering anything.
func Units(f *config.File) []UnitStatus {
	b := newBuilder(f, Options{})
	b.selectUnits()
	// A unit whose requirement is inactive would not render: show it inactive,
	// and so the units requiring it, until nothing changes.
	for changed := true; changed; {
		changed = false
		for i := range generated.Units {
			u := &generated.Units[i]
			st := b.status[u.Name]
			for _, r := range u.Requires {
				if st.Active && !b.status[r].Active && !b.external[r] {
					st.Active, st.Reason, changed = false, "requires "+r+", which is not active", true
				}
			}
		}
	}
	return b.p.Units // the statuses the loop changed, in catalog order
}

// fluxSystem is the name flux bootstrap gives the cluster's own
// GitRepository, its Secret, its namespace and its directory in the overlay.
const fluxSystem = "flux-system"

// selectUnits decides which units are active and why the others are not.
func (b *builder) selectUnits() {
	statuses := make([]UnitStatus, len(generated.Units))
	for i := range generated.Units {
		u := &generated.Units[i]
		st := &statuses[i]
		st.Unit = u
		b.status[u.Name] = st
		for _, fu := range u.FluxUnits {
			b.fluxOf[fu.Name] = u
		}
		if len(u.ActiveWith) > 0 {
			continue
		}
		st.Active = u.Gate.Holds(b.c)
		if !st.Active {
			st.Reason = "gate: " + negate(u.Gate.Text)
		} else if u.Common != nil && u.Common(b.c).External() {
			st.Active, st.External, b.external[u.Name] = false, true, true
			st.Reason = "adoption_mode external: installed outside opencenter, nothing rendered"
		}
	}
	for i := range generated.Units {
		u := &generated.Units[i]
		if len(u.ActiveWith) == 0 {
			continue
		}
		st := b.status[u.Name]
		for _, w := range u.ActiveWith {
			st.Active = st.Active || b.status[w].Active
		}
		if !st.Active {
			st.Reason = "active with " + strings.Join(u.ActiveWith, ", ") + ": none is active"
		}
	}
	for i := range generated.Units {
		u := &generated.Units[i]
		if !b.status[u.Name].Active {
			continue
		}
		for _, r := range u.Requires {
			if rs := b.status[r]; !rs.Active && !b.external[r] {
				b.errorf(u, "%s requires %s, which is not active (%s): enable it or disable %s", u.Name, r, rs.Reason, u.Name)
			}
		}
	}
	b.p.Units = statuses // the statuses themselves, in catalog order
}

func (b *builder) activeUnits() []*catalog.Unit {
	var out []*catalog.Unit
	for i := range generated.Units {
		if u := &generated.Units[i]; b.status[u.Name].Active {
			out = append(out, u)
		}
	}
	return out
}

func negate(text string) string {
	if s, ok := strings.CutSuffix(text, " is true"); ok {
		return s + " is not true"
	}
	return "not (" + text + ")"
}

// configPath is the YAML path in the config a unit's problems point at.
func configPath(u *catalog.Unit) string {
	switch {
	case u.Service != "":
		return u.ServicePath()
	case u.Layer == catalog.LayerCustomerManaged:
		return "opencenter.gitops.overlay_units.customer_managed"
	case u.Name == "sops":
		return "opencenter.gitops.overlay_units.sops"
	}
	return "opencenter"
}

func (b *builder) errorf(u *catalog.Unit, format string, args ...any) {
	b.diags = append(b.diags, b.f.Diag(configPath(u), format, args...))
}

// namespace is the unit's namespace after the config's override.
func (b *builder) namespace(u *catalog.Unit) string { return u.NamespaceOf(b.c) }

func (b *builder) expand(u *catalog.Unit, s string) string {
	return b.expandAfter("", u, s)
}

// expandAfter is prefix followed by expand(u, s), made in one allocation.
func (b *builder) expandAfter(prefix string, u *catalog.Unit, s string) string {
	if !strings.Contains(s, "{") {
		if prefix == "" {
			return s
		}
		return prefix + s
	}
	return expandPlaceholders(prefix, s, b.p.Overlay, b.namespace(u))
}

// expandPlaceholders is prefix followed by s with {overlay} and
// {namespace} replaced, in one pass.
func expandPlaceholders(prefix, s, overlay, namespace string) string {
	var out strings.Builder
	out.Grow(len(prefix) + len(s) + len(overlay) + len(namespace))
	out.WriteString(prefix)
	for i := strings.IndexByte(s, '{'); i >= 0; i = strings.IndexByte(s, '{') {
		out.WriteString(s[:i])
		s = s[i:]
		switch {
		case strings.HasPrefix(s, "{overlay}"):
			out.WriteString(overlay)
			s = s[len("{overlay}"):]
		case strings.HasPrefix(s, "{namespace}"):
			out.WriteString(namespace)
			s = s[len("{namespace}"):]
		default:
			out.WriteByte('{')
			s = s[1:]
		}
	}
	out.WriteString(s)
	return out.String()
}

// write adds the file p of unit u to the plan, written by body after its
// ownership header into the builder's arena, as addRendered does; it
// returns the file, nil when it was refused or body failed (the problem is
// reported).
func (b *builder) write(u *catalog.Unit, p string, secret bool, body func(dst []byte) ([]byte, error)) *file {
	data, err := overlay.NewFile(b.cfgName(), u.Name, body)
	if err != nil {
		b.errorf(u, "rendering %s: %v", p, err)
		return nil
	}
	return b.addRendered(u, rendered{path: p, data: data, secret: secret})
}

// addRendered puts a rendered file into the plan, checking its path, that it
// is the only file at that path, and that secrets are allowed; it returns
// the file, nil when it was refused (the problem is reported).
func (b *builder) addRendered(u *catalog.Unit, r rendered) *file {
	p, secret := r.path, r.secret
	if bad := unsafePath(p); bad != "" {
		b.errorf(u, "unit %s renders %q, which %s", u.Name, p, bad)
		return nil
	}
	if prev, dup := b.files[p]; dup {
		b.errorf(u, "unit %s renders %s, which unit %s renders too", u.Name, p, prev.Unit)
		return nil
	}
	if secret && !b.o.AllowPlaintextSecrets && b.sopsRule(p) < 0 {
		b.withheld[p] = true
		why := "sops is not enabled (opencenter.gitops.overlay_units.sops)"
		if b.c.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled {
			why = "no sops rule's path_regex matches it (rules match paths relative to the overlay, like " + p + ")"
		}
		b.errorf(u, "unit %s would write secret material to %s in plaintext, because %s: cover it with a sops rule, pass --allow-plaintext-secrets, or remove the values under %s", u.Name, p, why, secretsPath(u))
		return nil
	}
	f := &file{File: overlay.File{Path: p, Data: r.data, Secret: secret, Unit: u.Name}}
	b.order = append(b.order, f)
	b.files[p] = f
	dir := dirOf(p) // p is clean: unsafePath checked it
	f.nextInDir, b.byDir[dir] = b.byDir[dir], f
	return f
}

func secretsPath(u *catalog.Unit) string {
	switch {
	case u.Layer == catalog.LayerCustomerManaged:
		return "secrets.overlay_units.customer_managed"
	case u.Layer == catalog.LayerManagedServices:
		return "secrets.managed_services." + u.Service
	case u.Service != "":
		return "secrets.services." + u.Service
	}
	return "secrets"
}

// unsafePath explains why an output path may not be written, or returns "".
func unsafePath(p string) string {
	switch {
	case p == "" || p == ".":
		return "is empty"
	case strings.HasPrefix(p, "/"):
		return "is absolute"
	case !cleanInside(p):
		return "is not a clean relative path inside the overlay"
	case p == fluxSystem || strings.HasPrefix(p, fluxSystem+"/"):
		return "is under flux-system/, which belongs to flux bootstrap"
	case overlay.IsLocal(p):
		return "is in a local/ directory, which belongs to the user"
	}
	return ""
}

// cleanInside reports whether a relative path is clean and stays inside
// its root: each segment a name, none empty, "." or "..". It is
// path.Clean(p) == p without a leading "..", without building the clean
// path for each of a plan's files.
func cleanInside(p string) bool {
	for {
		seg, rest, more := strings.Cut(p, "/")
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		if !more {
			return true
		}
		p = rest
	}
}

// rendered is a file a unit produced, header included, before it joins the plan.
type rendered struct {
	path   string
	data   []byte
	secret bool
	// object is the file's one object when the builder wrote it from a Go
	// value and so knows it (a source's GitRepository); kind "" otherwise.
	object fluxorder.Object
}

// unitOutput is what rendering one unit produced.
type unitOutput struct {
	files []rendered
	diags diag.List
}

// renderUnit renders one active unit's sources, Flux units and overlay files.
// It only reads the builder, so units render concurrently.
// Its files go into out.files, which has room for one per source and file.
func (b *builder) renderUnit(u *catalog.Unit, info *catalog.Info, out *unitOutput) {
	errorf := func(format string, args ...any) {
		out.diags = append(out.diags, b.f.Diag(configPath(u), format, args...))
	}
	emit := func(r rendered) { out.files = append(out.files, r) }
	dir := u.Layer.Dir()
	for _, s := range u.Sources {
		obj, err := overlay.NewFile(b.cfgName(), u.Name, func(dst []byte) ([]byte, error) { return b.gitRepository(dst, u, s) })
		if err != nil {
			errorf("unit %s: source %s: %v", u.Name, s.Name, err)
			continue
		}
		emit(rendered{path: dir + "/sources/" + s.Name + ".yaml", data: obj, object: sourceObject(s.Name)})
	}
	for _, f := range u.Files {
		if f.Builtin != "" || !f.When.Holds(b.c) {
			continue
		}
		data, err := overlay.NewFile(b.cfgName(), u.Name, func(dst []byte) ([]byte, error) { return b.execute(dst, info, f) })
		if err != nil {
			if fe := (*escape.FieldError)(nil); errors.As(err, &fe) {
				// A value its file cannot hold: point at the value in the config.
				out.diags = append(out.diags, b.f.Diag(fe.Path, "%v, in %s (unit %s)", fe.Err, f.Template, u.Name))
				continue
			}
			errorf("unit %s: %s: %v", u.Name, f.Template, err)
			continue
		}
		if len(bytes.TrimSpace(overlay.Body(data))) == 0 {
			continue // a template that renders empty writes no file
		}
		emit(rendered{path: f.OverlayPath, data: data, secret: f.Secret})
	}
}

// fluxUnits renders the Flux Kustomizations, once the files they apply are
// known.
func (b *builder) fluxUnits(plans []*fluxPlan) {
	for _, fp := range plans {
		obj, err := overlay.NewFile(b.cfgName(), fp.Unit.Name, func(dst []byte) ([]byte, error) { return b.kustomization(dst, fp) })
		if err != nil {
			b.errorf(fp.Unit, "unit %s: flux unit %s: %v", fp.Unit.Name, fp.Spec.Name, err)
			continue
		}
		b.addRendered(fp.Unit, rendered{path: fp.Unit.Layer.Dir() + "/fluxcd/" + fp.Spec.Name + ".yaml", data: obj})
	}
}

// checkRefKind reports a release (rendered as spec.ref.tag) that names a
// branch of the base, or a branch that names a release tag: source-controller
// looks for a tag among tags and a branch among branches, and finds neither.
// rel is the index of the ref (nil: none, which is checked elsewhere); at
// gives the config path of the ref's mapping, built only for a message.
func (b *builder) checkRefKind(rel *catalog.BaseRelease, release string, at func() string) {
	switch {
	case rel == nil:
	case release != "" && rel.Branch:
		p := at()
		b.diags = append(b.diags, b.f.Diag(p+".release", "%q is a branch of the base repository, not a release tag: Flux would fetch tag %s and find none; set %s.branch: %q instead", rel.Ref, rel.Ref, p, rel.Ref))
	case release == "" && !rel.Branch:
		p := at()
		b.diags = append(b.diags, b.f.Diag(p+".branch", "%q is a release tag of the base repository, not a branch: Flux would fetch branch %s and find none; set %s.release: %q instead", rel.Ref, rel.Ref, p, rel.Ref))
	}
}

// checkReleases reports active units that the pinned base release does not
// hold, and a base release the catalog has no index for.
func (b *builder) checkReleases(active []*catalog.Unit) {
	base := &b.c.OpenCenter.GitOps.BaseRepo
	if rel := indexedRelease(base.Ref()); rel != nil {
		b.checkRefKind(rel, base.Release, func() string { return "opencenter.gitops.base_repo" })
	} else {
		var known []string
		for _, r := range generated.BaseReleases {
			known = append(known, r.Ref)
		}
		field := "opencenter.gitops.base_repo.release"
		if base.Release == "" {
			field = "opencenter.gitops.base_repo.branch"
		}
		b.diags = append(b.diags, b.f.Diag(field, "base release %q has no index in this version of opencenter, so its paths cannot be checked: expected one of %s", base.Ref(), strings.Join(known, ", ")))
	}
	for _, u := range active {
		// A fork's refs are its own; an override naming no ref follows the base's.
		if o := u.SourceOverride(b.c); o != nil && (o.Repo == "" || o.Repo == base.URL) {
			if ref := cmpOr(o.Release, o.Branch); ref != "" {
				b.checkRefKind(indexedRelease(ref), o.Release, func() string { return configPath(u) + ".source" })
			}
		}
	}
	for _, u := range active {
		if u.Releases == nil {
			continue
		}
		rel := b.baseRelease(u)
		if rel == nil || slices.Contains(u.Releases, rel.Ref) {
			continue
		}
		b.errorf(u, "%s is not in base release %s: its base paths exist only in %s; follow one of those for it (%s.source.release or .branch) or disable it",
			u.Name, rel.Ref, strings.Join(u.Releases, ", "), configPath(u))
	}
	for _, u := range active {
		b.checkAccepts(u)
	}
	for _, u := range active {
		// A base that places its objects itself cannot follow a namespace override.
		c := (*config.ServiceCommon)(nil)
		if u.Common != nil {
			c = u.Common(b.c)
		}
		if c == nil || c.Namespace == "" || c.Namespace == u.Namespace {
			continue
		}
		if why := b.namespaceFixed(u); why != "" {
			b.diags = append(b.diags, b.f.Diag(configPath(u)+".namespace", "%s: the namespace cannot be overridden", why))
		}
	}
}

// namespaceFixed says why u's base keeps its workloads in u's default
// namespace whatever namespace Flux applies it in, or "" when it does not:
// a base placing its objects itself, or a HelmRelease whose chart installs
// into the namespace its spec.targetNamespace names (a Flux
// Kustomization's targetNamespace moves the HelmRelease, not its release).
func (b *builder) namespaceFixed(u *catalog.Unit) string {
	for _, fu := range u.FluxUnits {
		if repo, _, _ := b.sourceRepo(fu.Source); repo != catalog.RepoBase || strings.Contains(fu.Path, "{") {
			continue
		}
		if fu.TargetNamespace == "" {
			return fmt.Sprintf("%s's base (%s) places its objects in namespace %s itself", u.Name, fu.Path, u.Namespace)
		}
		if rel := b.baseRelease(u); rel != nil {
			for _, o := range rel.Dirs[strings.TrimPrefix(fu.Path, "./")] {
				if o.InstallNamespace != "" {
					return fmt.Sprintf("%s's base HelmRelease %s (%s) installs its chart into namespace %s (spec.targetNamespace) wherever Flux applies the HelmRelease, away from what the overlay puts in the new one", u.Name, o.Name, fu.Path, o.InstallNamespace)
				}
			}
		}
	}
	return ""
}

// renderUnits renders the active units on up to GOMAXPROCS goroutines and
// adds their files to the plan in unit order, so the result does not depend
// on scheduling.
func (b *builder) renderUnits(active []*catalog.Unit) {
	if b.partLabels == nil {
		b.partLabels = make(map[string]map[string]string, len(active))
	}
	for _, u := range active {
		b.partLabels[u.Name] = b.fillLabels(map[string]string{}, u.Name)
	}
	b.infos, b.outs = make([]catalog.Info, len(active)), make([]unitOutput, len(active))
	for i, u := range active {
		b.infos[i] = b.info(u)
		b.outs[i].files = make([]rendered, 0, len(u.Sources)+len(u.Files))
	}
	outs := b.outs
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(active)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(active); i = int(next.Add(1)) - 1 {
				b.renderUnit(active[i], &b.infos[i], &outs[i])
			}
		})
	}
	wg.Wait()
	for i, u := range active {
		b.diags = append(b.diags, outs[i].diags...)
		for j := range outs[i].files {
			r := &outs[i].files[j] // in b.rendered, kept until the builder's release
			if f := b.addRendered(u, *r); f != nil && r.object.Kind != "" {
				f.object = &r.object
			}
		}
	}
}

func joinRoot(root, p string) string {
	if root == "" {
		return p
	}
	return root + "/" + p
}

// validate checks the plan as a whole: dependencies, sources, and that every
// resource a rendered kustomization lists exists.
func (b *builder) validate(active []*catalog.Unit) {
	for _, u := range active {
		for _, fu := range u.FluxUnits {
			if !fu.When.Holds(b.c) {
				continue
			}
			for _, d := range fu.DependsOn {
				if b.flux[d] {
					continue
				}
				owner := b.fluxOf[d]
				switch {
				case owner != nil && b.external[owner.Name]:
					// Installed outside opencenter: there already.
				case owner == nil:
					b.errorf(u, "%s depends on %s, which no unit renders", fu.Name, d)
				case !b.status[owner.Name].Active:
					if slices.Contains(u.Requires, owner.Name) {
						continue // selectUnits said so: "requires ..., which is not active"
					}
					b.errorf(u, "%s depends on %s, but %s is disabled: enable it or disable %s", fu.Name, d, owner.Name, u.Name)
				default:
					b.errorf(u, "%s depends on %s, which %s does not render for this config", fu.Name, d, owner.Name)
				}
			}
			if !b.sources[fu.Source] {
				b.errorf(u, "%s applies source %s, which is not rendered", fu.Name, fu.Source)
			}
		}
		for _, s := range u.Sources {
			for _, inc := range s.Include {
				if !b.sources[inc.Source] {
					b.errorf(u, "source %s includes %s, which is not rendered", s.Name, inc.Source)
				}
				if to, ok := strings.CutPrefix(b.expand(u, inc.To), b.p.Overlay+"/"); ok {
					b.include[to] = true
				}
			}
		}
	}
	b.checkResources()
}

// unitByName returns the table entry of a unit.
func unitByName(name string) *catalog.Unit {
	for i := range generated.Units {
		if generated.Units[i].Name == name {
			return &generated.Units[i]
		}
	}
	return nil
}
