package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"filippo.io/age"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/fluxdiff"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
	"github.com/opencenter-dev/opencenter/internal/gitrepo"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// DiffCmd compares what Flux applies to each cluster in two states of the
// repository.
type DiffCmd struct {
	RepoFlag `embed:""`
	BaseRef  string   `placeholder:"REF" help:"The state to compare from: a branch, tag or commit (default: the merge base of HEAD, or --head-ref, with the default branch)."`
	HeadRef  string   `placeholder:"REF" help:"The state to compare to: a branch, tag or commit, its committed overlays as they are (default: the working tree, its configs rendered in memory)."`
	Base     string   `placeholder:"DIR" help:"Git checkout (or bare git directory) of the base repository, read at each GitRepository's ref; without it, the Flux units built from the base are listed as not compared."`
	Output   string   `short:"o" enum:"text,json,markdown" default:"text" help:"Output format: text, json (its shape in docs/reference/json.md), or markdown (for a pull request comment)."`
	Color    string   `enum:"auto,always,never" default:"auto" help:"Color the text output: auto (when standard output is a terminal and NO_COLOR is not set), always or never."`
	Configs  []string `arg:"" optional:"" name:"CONFIG" help:"Configs of the clusters to compare (default: every .<cluster>-config.yaml at the root of --repo, and every overlay of either state)."`
}

// Help explains the two states diff compares and what it shows.
func (c *DiffCmd) Help() string {
	return `Shows, cluster by cluster, what Flux would apply differently in one state of the repository
than in another: the Kubernetes objects added, removed, changed or moved to another Flux unit,
grouped by the Flux unit (Kustomization) that applies them, and for each HelmRelease the change in
the values helm-controller passes to its chart (the base's values merged with the overlay's, as
helm-controller merges them). Each cluster is built as 'opencenter verify' builds it: every Flux
unit, offline, in its GitRepository's tree.

The two states:
  - --base-ref (default: the merge base of HEAD with the default branch, origin/HEAD or main): the
    overlays committed at that commit, as they are: what Flux applies at that commit.
  - --head-ref: the same, at that commit. Without it, the working tree: each config rendered in
    memory by this opencenter (so a config change not rendered yet, or an opencenter upgrade, shows
    as it will be once rendered and committed), with the local/ files on disk.
flux-system/ belongs to flux bootstrap and is compared in neither. A cluster whose overlay is
byte for byte the same in both states does not change, and is not built.

The base repository is read from --base, one checkout for both states, at the ref each
GitRepository names; without --base, and for any other repository (a customer's), the Flux units
built from it are listed as not compared. So are remote resources (listed when they come or go).

No secret value is printed: the data of a Secret, content read from a SOPS-encrypted file and
values a HelmRelease reads from secret material show as "(secret)", and as "(secret, changed)"
where they differ. With an age key (as sops finds it) encrypted files are compared by value;
without one, by ciphertext.

Clusters without a change are one line each. A cluster whose overlay differs but whose Flux
units compared apply the same objects says so, and lists the units not compared: the change
may be in them. The last line says which clusters change.

Exit status: 0 no change, 1 a change, 2 bad input (a config, a ref, --base not a git repository).

Examples:

    # What this branch (committed or not) changes, against the merge base with main
    opencenter diff --base ../openCenter-gitops-base

    # In CI, for a pull request comment
    opencenter diff --base-ref origin/main --head-ref HEAD --base ../base -o markdown

    # One cluster, as JSON
    opencenter diff --base ../base .k8s-dev-config.yaml -o json`
}

// diffSide is one state of the repository: a commit's committed files, or
// the working tree.
type diffSide struct {
	// desc names the state for people.
	desc string
	// commit is the state's commit; "" for the working tree.
	commit string
	// files are the committed files at commit.
	files map[string][]byte
	// configs are the clusters the configs at the root name, by cluster.
	configs map[string]*config.File
}

// overlays lists the clusters that have an overlay in the state's files.
func (s *diffSide) overlays() []string {
	seen := map[string]bool{}
	for p := range s.files {
		if rest, ok := strings.CutPrefix(p, overlaysDir+"/"); ok {
			if cluster, _, ok := strings.Cut(rest, "/"); ok {
				seen[cluster] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// overlaysDir holds every cluster's overlay.
const overlaysDir = "applications/overlays"

// tree returns the committed overlay of cluster as Flux reads it, with a
// stand-in for flux-system/; nil when the state has no overlay for it.
func (s *diffSide) tree(cluster string) fluxbuild.Tree {
	prefix := overlaysDir + "/" + cluster + "/"
	tree := fluxbuild.Tree{}
	for p, data := range s.files {
		if strings.HasPrefix(p, prefix) && !strings.HasPrefix(p, prefix+"flux-system/") {
			tree[p] = data
		}
	}
	if len(tree) == 0 {
		return nil
	}
	tree[prefix+"flux-system/kustomization.yaml"] = emptyFluxSystem()
	return tree
}

// diffJob is one cluster to compare.
type diffJob struct {
	cluster string
	// f is its config in the working tree, nil when it has none.
	f *config.File
	// base and head are its overlays; nil where it has none.
	base, head fluxbuild.Tree
	// urls of the cluster's repository in each state, and of the base repository.
	baseURL, headURL, baseRepo string
	// existing lists the Secrets the config names as kept outside the
	// repository; secrets is its answer, asked once, when a HelmRelease
	// reads a Secret no build makes.
	existing     func() []types.NamespacedName
	secrets      []types.NamespacedName
	existingOnce sync.Once
	r            *result
}

// external reports whether the cluster has Secret namespace/name outside
// the repository, as its config in the working tree says.
func (j *diffJob) external(namespace, name string) bool {
	j.existingOnce.Do(func() {
		if j.existing != nil {
			j.secrets = j.existing()
		}
	})
	return slices.Contains(j.secrets, types.NamespacedName{Namespace: namespace, Name: name})
}

// Run compares every cluster, in parallel, and reports them in order.
func (c *DiffCmd) Run(s *Streams) error {
	if err := c.resolve(c.Configs); err != nil {
		return err
	}
	if _, err := gitrepo.Resolve(c.Repo, "HEAD"); err != nil {
		return badInput(fmt.Errorf("--repo %s: not a git repository with commits: diff compares two states of it", c.Repo))
	}
	if c.Base != "" {
		if err := checkCheckout(c.Base); err != nil {
			return badInput(err)
		}
	}
	ring := &sops.Keyring{}
	head, base, err := c.sides(ring)
	if err != nil {
		return badInput(err)
	}
	jobs, results, err := c.jobs(base, head, ring)
	if err != nil {
		return err
	}
	if jobs == nil {
		// Configs that did not load: their problems alone.
		return results.print(s, "diff", map[string]string{"json": "json"}[c.Output], s.Quiet, nil, exitOK)
	}
	ids, _ := ring.Identities() // none: encrypted values compare as ciphertext
	tables := simTables{providers: providers(), indexed: indexedCommits()}
	var sim fluxsim.Simulator
	diffs := make([]*fluxdiff.Cluster, len(jobs))
	parallel(len(jobs), func(i int) {
		if j := jobs[i]; j.r.code == exitOK {
			diffs[i] = c.compare(&sim, tables, ids, j)
		}
	})
	return c.print(s, base, head, diffs, results)
}

// sides resolves the two states.
func (c *DiffCmd) sides(ring *sops.Keyring) (head, base *diffSide, err error) {
	head = &diffSide{desc: "the working tree"}
	from := "HEAD"
	if c.HeadRef != "" {
		if head, err = c.side(c.HeadRef, c.HeadRef, ring); err != nil {
			return nil, nil, err
		}
		from = c.HeadRef
	}
	ref, what := c.BaseRef, c.BaseRef
	if ref == "" {
		def, err := gitrepo.DefaultBranch(c.Repo)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: pass --base-ref", err)
		}
		if ref, err = gitrepo.MergeBase(c.Repo, from, def); err != nil {
			return nil, nil, fmt.Errorf("%w, or pass --base-ref", err)
		}
		what = "the merge base of " + from + " and " + def
	}
	base, err = c.side(ref, what, ring)
	return head, base, err
}

// side reads the committed state at ref.
func (c *DiffCmd) side(ref, what string, ring *sops.Keyring) (*diffSide, error) {
	commit, err := gitrepo.Resolve(c.Repo, ref)
	if err != nil {
		return nil, err
	}
	snap, err := gitrepo.Read(c.Repo, commit)
	if err != nil {
		return nil, err
	}
	s := &diffSide{desc: fmt.Sprintf("%s (%.12s)", what, commit), commit: commit, files: snap.Files, configs: map[string]*config.File{}}
	if what == commit {
		s.desc = fmt.Sprintf("%.12s", commit)
	}
	// Its configs name the repository's URLs at that commit.
	for p, data := range snap.Files {
		if strings.Contains(p, "/") || !strings.HasPrefix(p, ".") || !strings.HasSuffix(p, "-config.yaml") {
			continue
		}
		f, err := config.Parse(p, data, config.LoadOptions{AllowLocked: true, Keys: ring})
		if err != nil {
			continue // a config that does not load at that commit names nothing
		}
		s.configs[f.Config.OpenCenter.Cluster.ClusterName] = f
	}
	return s, nil
}

// jobs lists the clusters to compare, with a result for each, and loads
// the working tree's configs.
func (c *DiffCmd) jobs(base, head *diffSide, ring *sops.Keyring) ([]*diffJob, results, error) {
	files := c.Configs
	if len(files) > 0 || head.commit == "" {
		var err error
		if files, err = configFiles(c.Repo, c.Configs); err != nil {
			return nil, nil, err
		}
	} else {
		files, _ = filepath.Glob(filepath.Join(c.Repo, ".*-config.yaml"))
		slices.Sort(files)
	}
	loaded, problems := loadConfigs(files, config.LoadOptions{AllowLocked: true, Keys: ring})
	// A config that does not load stops diff: it names no cluster.
	var bad results
	for i := range problems {
		if problems[i].code != exitOK {
			bad = append(bad, problems[i])
		}
	}
	if len(bad) > 0 {
		return nil, bad, nil
	}

	byCluster := map[string]*config.File{}
	var clusters []string
	for _, f := range loaded {
		name := f.Config.OpenCenter.Cluster.ClusterName
		byCluster[name] = f
		clusters = append(clusters, name)
	}
	if len(c.Configs) == 0 {
		// Every overlay of either state, and the configs' clusters.
		clusters = slices.Concat(clusters, base.overlays(), head.overlays())
		slices.Sort(clusters)
		clusters = slices.Compact(clusters)
	}
	jobs := make([]*diffJob, len(clusters))
	rs := make(results, len(clusters))
	for i, name := range clusters {
		j := &diffJob{cluster: name, f: byCluster[name], r: &rs[i]}
		j.r.rep.Cluster, j.r.rep.Overlay = name, overlay.Dir(name)
		if j.f != nil {
			j.r.rep.Config = j.f.Name
		}
		jobs[i] = j
	}
	c.trees(base, head, jobs)
	return jobs, rs, nil
}

// trees gives each job its two overlays and the URLs Flux reads them at.
func (c *DiffCmd) trees(base, head *diffSide, jobs []*diffJob) {
	url := func(f *config.File) (repo, baseRepo string) {
		if f == nil {
			return "", ""
		}
		return f.Config.OpenCenter.GitOps.Repository.URL, f.Config.OpenCenter.GitOps.BaseRepo.URL
	}
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		j.base = base.tree(j.cluster)
		j.baseURL, j.baseRepo = url(base.configs[j.cluster])
		if head.commit != "" {
			j.head = head.tree(j.cluster)
			j.headURL, _ = url(head.configs[j.cluster])
		} else if j.f != nil {
			c.render(j)
		} else if _, err := inrepo.Stat(c.Repo, overlay.Dir(j.cluster)); err == nil {
			// An overlay no config names: it stays as it is on disk.
			j.r.notef("note: %s: no config in the working tree names cluster %s: its overlay on disk is not compared", overlay.Dir(j.cluster), j.cluster)
			j.head = j.base
		}
		// A state whose config does not say where the repository is
		// takes the other state's, then the working tree's.
		wt, wtBase := url(j.f)
		j.headURL = cmpOr(j.headURL, j.baseURL, wt)
		j.baseURL = cmpOr(j.baseURL, j.headURL)
		j.baseRepo = cmpOr(j.baseRepo, wtBase, url2(head.configs[j.cluster]))
		if j.f != nil && j.existing == nil {
			j.existing = func() []types.NamespacedName {
				pl, err := plan.Build(j.f, plan.Options{AllowPlaintextSecrets: true, PolicyRecipients: policyRecipients(j.f.Name)})
				if err != nil {
					return nil
				}
				return plan.ExistingSecrets(pl, j.f.Config)
			}
		}
	})
}

// url2 is the base repository's URL a config names; "" for none.
func url2(f *config.File) string {
	if f == nil {
		return ""
	}
	return f.Config.OpenCenter.GitOps.BaseRepo.URL
}

// cmpOr returns the first of its arguments that is not "".
func cmpOr(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// render renders job j's config in memory, as the working tree's state.
func (c *DiffCmd) render(j *diffJob) {
	name := j.f.Name
	// Plaintext secrets stay in memory, and nothing diff prints carries a
	// value; an encrypted file whose plaintext is unchanged keeps its bytes.
	pl, tree, err := renderedTree(c.Repo, j.f, plan.Options{AllowPlaintextSecrets: true, Repo: c.Repo, Keys: &sops.Keyring{}, PolicyRecipients: policyRecipients(name)})
	if err != nil {
		planFailed(j.r, name, err)
		return
	}
	for _, pf := range pl.Files {
		if !pf.Unverified {
			continue
		}
		// No key opened the config's secrets: the file on disk (committed
		// with the change) is what Flux would get.
		if data, err := inrepo.ReadFile(c.Repo, pl.Overlay+"/"+pf.Path); err == nil {
			tree[pl.Overlay+"/"+pf.Path] = data
		}
	}
	j.head = tree
	j.headURL = j.f.Config.OpenCenter.GitOps.Repository.URL
	existing := plan.ExistingSecrets(pl, j.f.Config)
	j.existing = func() []types.NamespacedName { return existing }
}

// compare builds both states of job j and compares them.
func (c *DiffCmd) compare(sim *fluxsim.Simulator, tables simTables, ids []age.Identity, j *diffJob) *fluxdiff.Cluster {
	if sameTree(j.base, j.head) && j.baseURL == j.headURL {
		return &fluxdiff.Cluster{Cluster: j.cluster, Change: fluxdiff.Unchanged}
	}
	state := func(tree fluxbuild.Tree, url string) *fluxdiff.State {
		if tree == nil {
			return nil
		}
		tree = maps.Clone(tree)
		st := &fluxdiff.State{Tree: tree, Encrypted: fluxdiff.Decrypt(tree, ids)}
		st.External = j.external
		repos := []fluxsim.Repo{{URL: url, Tree: tree}}
		if c.Base != "" && j.baseRepo != "" {
			repos = append(repos, fluxsim.Repo{URL: j.baseRepo, Dir: c.Base, Indexed: tables.indexed})
		}
		rep := sim.Run(fluxsim.Cluster{
			Name: j.cluster, URL: url, Path: overlay.Dir(j.cluster), Repos: repos,
			Providers: tables.providers, ClusterScoped: catalog.ClusterScoped,
		})
		st.Units = rep.Applied
		return st
	}
	return fluxdiff.Compare(j.cluster, state(j.base, j.baseURL), state(j.head, j.headURL))
}

// sameTree reports whether two overlays hold the same files.
func sameTree(a, b fluxbuild.Tree) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if len(a) != len(b) {
		return false
	}
	for p, data := range a {
		if other, ok := b[p]; !ok || !bytes.Equal(data, other) {
			return false
		}
	}
	return true
}

// print writes the report: text, Markdown or JSON.
func (c *DiffCmd) print(s *Streams, base, head *diffSide, diffs []*fluxdiff.Cluster, rs results) error {
	var changed []string
	for i, d := range diffs {
		if d == nil {
			continue
		}
		rs[i].rep.Diff = d
		if d.Changed() {
			changed = append(changed, d.Cluster)
			rs[i].code = max(rs[i].code, exitDiffers)
		}
	}
	code := rs.code(exitOK)
	if c.Output == "json" {
		doc := reportJSON{Command: "diff", Exit: code, Configs: rs.reports(),
			Base: &stateJSON{base.desc, base.commit}, Head: &stateJSON{head.desc, head.commit}}
		if err := writeJSON(s, doc); err != nil {
			return err
		}
		return exitFor(code)
	}
	compared := fmt.Sprintf("Comparing %s with %s.", base.desc, head.desc)
	tail := fmt.Sprintf("%d of %s change", len(changed), clusterCount(len(diffs)))
	if len(changed) == 1 {
		tail += "s"
	}
	if len(changed) > 0 {
		tail += ": " + strings.Join(changed, ", ")
	}
	tail += "."
	if c.Output == "markdown" {
		var b strings.Builder
		fmt.Fprintf(&b, "### opencenter diff\n\n%s %s\n\n", compared, tail)
		var unchanged []string
		for _, d := range diffs {
			switch {
			case d == nil:
			case d.Unaffected():
				unchanged = append(unchanged, "`"+d.Cluster+"`")
			default:
				d.WriteMarkdown(&b)
			}
		}
		if len(unchanged) > 0 {
			fmt.Fprintf(&b, "No change: %s.\n", strings.Join(unchanged, ", "))
		}
		io.WriteString(s.Out, b.String())
		rs.writeText(s, true) // the stderr lines only: the document has the rest
		return exitFor(code)
	}
	color := c.Color == "always" || c.Color == "auto" && isTerminal(s.Out) && os.Getenv("NO_COLOR") == ""
	for i, d := range diffs {
		if d != nil {
			d.WriteText(&rs[i].out, color)
		}
	}
	if !s.Quiet {
		fmt.Fprintln(s.Out, compared)
	}
	rs.writeText(s, s.Quiet)
	if !s.Quiet && len(diffs) > 0 {
		fmt.Fprintln(s.Out, tail)
	}
	return exitFor(code)
}

// clusterCount is "n clusters".
func clusterCount(n int) string {
	if n == 1 {
		return "1 cluster"
	}
	return fmt.Sprintf("%d clusters", n)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// stateJSON names one state in diff's JSON.
type stateJSON struct {
	Desc   string `json:"desc"`
	Commit string `json:"commit,omitempty"`
}
