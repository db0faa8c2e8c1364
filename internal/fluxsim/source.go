package fluxsim

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/fluxcd/pkg/apis/kustomize"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/gitrepo"
)

// NormalizeURL reduces a git URL to host/path so that the forms Flux accepts
// for one repository compare equal: ssh://user@host/path, scp-style
// user@host:path and https://host/path, with or without a trailing ".git"
// or "/". Hosting services treat owner and repository names without regard
// to case, so the result is lower case.
func NormalizeURL(u string) string {
	u = strings.TrimSpace(u)
	if i := strings.Index(u, "://"); i >= 0 {
		if p, err := url.Parse(u); err == nil {
			u = p.Hostname() + "/" + strings.TrimPrefix(p.Path, "/")
		} else {
			u = u[i+3:]
		}
	} else if at, colon := strings.Index(u, "@"), strings.Index(u, ":"); colon > at && !strings.Contains(u[:colon], "/") {
		u = u[at+1:colon] + "/" + u[colon+1:]
	}
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
	return strings.ToLower(u)
}

// sourceState is how far resolving a GitRepository got.
type sourceState int

const (
	sourceWaiting   sourceState = iota // an included GitRepository is not known yet
	sourceReady                        // the artifact is built
	sourceUnchecked                    // not available offline
	sourceFailed                       // Flux could not produce the artifact (a finding says why)
)

// source is one GitRepository the cluster applies.
type source struct {
	obj  *applied
	spec sourcev1.GitRepositorySpec
	// state and, for unchecked and failed sources, why (empty for a source
	// failed because a source it includes did).
	state  sourceState
	reason string
	// resolved marks state as final (waiting is not).
	resolved bool
	tree     fluxbuild.Tree
	builder  *fluxbuild.Builder
	// desc describes the artifact for messages: the URL and ref.
	desc string
	// fromCheckout marks an artifact read from a git checkout.
	fromCheckout bool
	// shared names the artifact of a checkout at a commit, which every
	// simulation shares, builds included; "" for others.
	shared string
}

// refText names a GitRepository's ref the way its spec does, and the refs
// source-controller checks out for it, in git's full names: a tag only among
// tags, a branch among branches (a checkout's remote-tracking ones too, as
// a clone has them); semver ranges cannot be resolved offline.
func refText(r *sourcev1.GitRepositoryRef) (text string, refs []string, ok bool) {
	switch {
	case r == nil:
		return "branch master", gitrepo.BranchRefs("master"), true // Flux's default
	case r.Commit != "":
		return "commit " + r.Commit, []string{r.Commit}, true
	case r.Name != "":
		return "ref " + r.Name, []string{r.Name}, true
	case r.SemVer != "":
		return "semver " + r.SemVer, nil, false
	case r.Tag != "":
		return "tag " + r.Tag, []string{gitrepo.TagRef(r.Tag)}, true
	case r.Branch != "":
		return "branch " + r.Branch, gitrepo.BranchRefs(r.Branch), true
	}
	return "branch master", gitrepo.BranchRefs("master"), true
}

// repo returns the repository the simulation has for a URL, if any.
func (s *sim) repo(u string) (Repo, bool) {
	n := NormalizeURL(u)
	for _, r := range s.c.Repos {
		if NormalizeURL(r.URL) == n {
			return r, true
		}
	}
	return Repo{}, false
}

// resolve makes the artifact of src, as source-controller would. It returns
// with src.resolved false while an included GitRepository is not known yet.
func (s *sim) resolve(src *source, visiting map[*source]bool) {
	if src.resolved {
		return
	}
	if visiting[src] {
		s.sourceFail(src, "spec.include: includes itself through %s", src.obj.key)
		return
	}
	visiting[src] = true
	defer delete(visiting, src)

	r, ok := s.repo(src.spec.URL)
	if !ok {
		s.sourceUnchecked(src, "GitRepository %s (%s) is neither the cluster repository nor the base", src.obj.key, src.spec.URL)
		return
	}
	var tree fluxbuild.Tree
	var key string
	if r.Tree != nil {
		tree, key = r.Tree, "tree "+NormalizeURL(r.URL)
		src.desc = src.spec.URL
	} else {
		text, refs, ok := refText(src.spec.Reference)
		if !ok {
			s.sourceUnchecked(src, "GitRepository %s: %s cannot be resolved offline", src.obj.key, text)
			return
		}
		src.desc = src.spec.URL + " " + text
		snap, found, err := s.sim.read(r.Dir, refs)
		if !found {
			s.sourceFail(src, "GitRepository %s: %s is not in the checkout of %s", src.obj.key, text, src.spec.URL)
			return
		}
		if err != nil {
			s.sourceFail(src, "GitRepository %s: %s: %v", src.obj.key, text, err)
			return
		}
		tree, key, src.fromCheckout = snap.Files, "git "+r.Dir+" "+snap.Commit, true
		if ref := src.spec.Reference; ref != nil && ref.Commit == "" && ref.Name == "" {
			if want, ok := r.Indexed[cmpOr(ref.Tag, ref.Branch)]; ok && want != snap.Commit {
				s.info("base index", r.Dir, "%s is at %.12s here, but opencenter's index of it is at %.12s: the render checked the base's paths and objects against the index; re-extract it (gen/baseindex) if the base has moved",
					text, snap.Commit, want)
			}
		}
	}

	if len(src.spec.Include) > 0 {
		tree = maps.Clone(tree)
		key = "include " + src.obj.key
	}
	for _, inc := range src.spec.Include {
		other, ok := s.sources[src.obj.ns+"/"+inc.GitRepositoryRef.Name]
		if !ok {
			return // may come from a later build; reported at the end if not
		}
		s.resolve(other, visiting)
		switch {
		case !other.resolved:
			return
		case other.state == sourceUnchecked:
			s.sourceUnchecked(src, "GitRepository %s includes %s, which is not checked offline", src.obj.key, other.obj.key)
			return
		case other.state == sourceFailed:
			s.sourceFail(src, "")
			return
		}
		if err := include(tree, other.tree, inc.FromPath, cmpOr(inc.ToPath, inc.GitRepositoryRef.Name)); err != nil {
			s.sourceFail(src, "GitRepository %s: spec.include of %s: %v", src.obj.key, other.obj.key, err)
			return
		}
	}
	var b *fluxbuild.Builder
	var err error
	if strings.HasPrefix(key, "git ") {
		// A checkout at a commit is the same artifact for every cluster.
		b, err = s.sim.builder(key, tree)
		src.shared = key
	} else if b = s.builders[key]; b == nil {
		b, err = fluxbuild.NewBuilder(tree)
		s.builders[key] = b
	}
	if err != nil {
		s.sourceFail(src, "GitRepository %s: %v", src.obj.key, err)
		return
	}
	src.tree, src.builder, src.state, src.resolved = tree, b, sourceReady, true
}

// include copies fromPath of an included artifact to toPath of tree, as
// source-controller does (files already there are overwritten).
func include(tree, from fluxbuild.Tree, fromPath, toPath string) error {
	fromPath = path.Clean(strings.TrimPrefix(fromPath, "./"))
	toPath = path.Clean(strings.TrimPrefix(toPath, "./"))
	n := 0
	for p, data := range from {
		rel := p
		if fromPath != "." {
			var ok bool
			if rel, ok = strings.CutPrefix(p, fromPath+"/"); !ok {
				continue
			}
		}
		tree[path.Join(toPath, rel)] = data
		n++
	}
	if n == 0 {
		return fmt.Errorf("fromPath %s does not exist in it", fromPath)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (s *sim) sourceUnchecked(src *source, format string, args ...any) {
	src.state, src.resolved, src.reason = sourceUnchecked, true, fmt.Sprintf(format, args...)
}

// sourceFail marks src failed, with a finding unless format is empty (the
// cause already has one).
func (s *sim) sourceFail(src *source, format string, args ...any) {
	src.state, src.resolved = sourceFailed, true
	if format != "" {
		src.reason = fmt.Sprintf(format, args...)
		s.finding(s.owner(src.obj), src.obj.File, "%s", src.reason)
	}
}

// snapshot is one read of a checkout at a ref.
type snapshot struct {
	once  sync.Once
	snap  *gitrepo.Snapshot
	found bool
	err   error
}

// read returns the files of the checkout dir at the first of refs it has,
// reading each once; found is false when the checkout has none of them.
func (s *Simulator) read(dir string, refs []string) (snap *gitrepo.Snapshot, found bool, err error) {
	key := [2]string{dir, strings.Join(refs, " ")}
	s.mu.Lock()
	if s.snaps == nil {
		s.snaps = map[[2]string]*snapshot{}
	}
	e, ok := s.snaps[key]
	if !ok {
		e = &snapshot{}
		s.snaps[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() {
		commit, found := gitrepo.ResolveExact(dir, refs...)
		if !found {
			return
		}
		e.found = true
		e.snap, e.err = gitrepo.Read(dir, commit)
	})
	return e.snap, e.found, e.err
}

// builder returns the builder of a checkout's artifact at a commit (key),
// made once for all simulations.
func (s *Simulator) builder(key string, tree fluxbuild.Tree) (*fluxbuild.Builder, error) {
	s.mu.Lock()
	if s.builders == nil {
		s.builders = map[string]*sharedBuilder{}
	}
	e, ok := s.builders[key]
	if !ok {
		e = &sharedBuilder{}
		s.builders[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.b, e.err = fluxbuild.NewBuilder(tree) })
	return e.b, e.err
}

// sharedBuilder is a checkout's builder, made once.
type sharedBuilder struct {
	once sync.Once
	b    *fluxbuild.Builder
	err  error
}

// build builds dir of src's artifact as a Kustomization with this
// targetNamespace and these patches would. The builds of a shared
// artifact are made once for all simulations: a fleet's clusters build
// the same base paths the same way.
func (s *Simulator) build(src *source, dir, targetNamespace string, patches []kustomize.Patch) (*fluxbuild.Result, error) {
	if src.shared == "" {
		return src.builder.Build(dir, targetNamespace, patches)
	}
	p, err := json.Marshal(patches)
	if err != nil {
		return nil, err
	}
	key := [4]string{src.shared, dir, targetNamespace, string(p)}
	s.mu.Lock()
	if s.builds == nil {
		s.builds = map[[4]string]*sharedBuild{}
	}
	e, ok := s.builds[key]
	if !ok {
		e = &sharedBuild{}
		s.builds[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.res, e.err = src.builder.Build(dir, targetNamespace, patches) })
	return e.res, e.err
}

// sharedBuild is one build of a shared artifact, made once.
type sharedBuild struct {
	once sync.Once
	res  *fluxbuild.Result
	err  error
}
