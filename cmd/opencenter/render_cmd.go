package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aymanbagabas/go-udiff"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
	"github.com/opencenter-dev/opencenter/internal/repolock"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// RenderCmd renders overlays.
type RenderCmd struct {
	RepoFlag              `embed:""`
	Only                  string        `placeholder:"UNIT" help:"Re-render only this unit and the aggregates it belongs to ('opencenter units' lists them)."`
	Check                 bool          `help:"Write nothing; exit 1 and list the files if the overlay on disk differs."`
	Diff                  bool          `help:"Write nothing; print a unified diff of what would change (exit 1 when non-empty)."`
	Force                 bool          `help:"Overwrite or delete files under owned paths that opencenter did not write or that were edited by hand."`
	Adopt                 bool          `help:"Take over an overlay another tool wrote (openCenter-cli): replace and delete its files, those without opencenter's header, and list them; hand-edited files stay refused."`
	AllowPlaintextSecrets bool          `help:"Write values from secrets: into the tree in plaintext (warned on stderr); without it such a config is refused."`
	RequireKeys           bool          `help:"With --check or --diff, fail (exit 2) when an encrypted file could not be compared because no age key was at hand (for CI that holds the key)."`
	Prune                 bool          `help:"Delete the files opencenter wrote in overlays no config names (orphans: a config deleted or a cluster renamed); other files there stay, listed."`
	Wait                  time.Duration `default:"60s" help:"How long to wait for another opencenter process rendering this repository before giving up (exit 4)."`
	OutputFlag            `embed:""`
	Configs               []string `arg:"" optional:"" name:"CONFIG" help:"Config files to render (default: every .*-config.yaml at the root of --repo; then overlays no config names are reported as orphans)."`
}

// Run renders every config, clusters in parallel (at most GOMAXPROCS at a
// time), one process per repository at a time (repolock). Each cluster is
// planned and checked in memory first: a cluster with any problem writes
// nothing; the others are written.
func (c *RenderCmd) Run(s *Streams) error {
	if err := c.resolve(c.Configs); err != nil {
		return err
	}
	if c.Check && c.Diff {
		return badInput(errors.New("--check and --diff are exclusive"))
	}
	if c.Only != "" {
		if _, err := unitNamed(c.Only); err != nil {
			return badInput(fmt.Errorf("--only: %w", errors.Unwrap(err)))
		}
	}
	if c.Prune && (c.Check || c.Diff || len(c.Configs) > 0) {
		return badInput(errors.New("--prune needs the whole repository: no CONFIG, no --check or --diff"))
	}
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	lock, err := repolock.Acquire(c.Repo, !c.Check && !c.Diff, c.Wait)
	if errors.Is(err, repolock.ErrBusy) {
		return &exitError{exitBusy, err}
	}
	if err != nil {
		return err
	}
	defer lock.Release()

	tuneGC(len(files))
	ring := &sops.Keyring{} // the keys file read once
	loaded, results := loadConfigs(files, config.LoadOptions{AllowLocked: c.Check || c.Diff, Keys: ring})
	// The names of the clusters, "" for a config that did not load; each
	// config is dropped once rendered, so a fleet's are not all held.
	names := make([]string, len(files))
	for i, f := range loaded {
		if f != nil {
			names[i] = f.Config.OpenCenter.Cluster.ClusterName
		}
	}
	progress := newProgress(s.Err, len(files))
	keys := &sops.DataKeys{} // one data key per set of recipients for the whole fleet
	parallel(len(files), func(i int) {
		if loaded[i] != nil {
			c.renderOne(loaded[i], keys, ring, &results[i])
			loaded[i] = nil
		}
		progress.done()
	})
	progress.finish()

	var orphans []orphanJSON
	code := exitOK
	if len(c.Configs) == 0 {
		var r result
		orphans, code = c.orphans(&r, names)
		if c.Output != "json" {
			results = append(results, r)
		}
	}
	return results.print(s, "render", c.Output, s.Quiet, orphans, code)
}

// loadConfigs loads files in parallel: each config, nil with its problems
// in its result where it does not load or names a cluster another does.
func loadConfigs(files []string, opts config.LoadOptions) ([]*config.File, results) {
	res := make(results, len(files))
	loaded := make([]*config.File, len(files))
	parallel(len(files), func(i int) {
		res[i].rep.Config = files[i]
		f, err := config.Load(files[i], opts)
		if err != nil {
			res[i].problems(diag.AsList(files[i], err), exitBadInput)
			return
		}
		loaded[i] = f
	})
	for i, d := range sameCluster(files, loaded) {
		res[i].problems(diag.List{d}, exitBadInput)
		loaded[i] = nil
	}
	return loaded, res
}

// parallel runs do(0..n-1) on at most GOMAXPROCS goroutines.
func parallel(n int, do func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := range jobs {
				do(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// sameCluster reports, by index, configs that name a cluster another config
// names too: neither may write its overlay.
func sameCluster(files []string, loaded []*config.File) map[int]diag.Diag {
	by := map[string][]int{}
	for i, f := range loaded {
		if f != nil {
			by[f.Config.OpenCenter.Cluster.ClusterName] = append(by[f.Config.OpenCenter.Cluster.ClusterName], i)
		}
	}
	out := map[int]diag.Diag{}
	for cluster, is := range by {
		if len(is) < 2 {
			continue
		}
		var names []string
		for _, i := range is {
			names = append(names, files[i])
		}
		for _, i := range is {
			out[i] = loaded[i].Diag("opencenter.cluster.cluster_name",
				"cluster %s is named by %d configs (%s): one config per cluster; nothing is written for it", cluster, len(is), strings.Join(names, ", "))
		}
	}
	return out
}

// orphans reports overlays that hold files opencenter wrote but that no
// config names, into r, and with --prune deletes those files. It returns
// them and the exit code: 1 for --check and --diff when there is one.
func (c *RenderCmd) orphans(r *result, names []string) ([]orphanJSON, int) {
	named := map[string]bool{}
	for _, n := range names {
		if n == "" {
			return nil, exitOK // a config that did not load may name any cluster
		}
		named[n] = true
	}
	found, err := overlay.Orphans(c.Repo, named)
	if err != nil {
		r.errorf("opencenter: %v", err)
		return nil, exitBadInput
	}
	code := exitOK
	var out []orphanJSON
	for _, o := range found {
		j := orphanJSON{Cluster: o.Cluster, Overlay: o.Overlay, Owned: o.Owned, Kept: o.Kept}
		switch {
		case c.Prune:
			if err := overlay.Prune(c.Repo, o); err != nil {
				r.errorf("opencenter: %s: %v", o.Overlay, err)
				code = exitBadInput
				continue
			}
			j.Pruned = true
			fmt.Fprintf(&r.out, "%s: pruned %d files opencenter wrote (no config names cluster %s)\n", o.Overlay, len(o.Owned), o.Cluster)
			for _, f := range o.Kept {
				r.warnf("%s/%s: kept: not written by opencenter, or edited since", o.Overlay, f)
			}
		default:
			r.warnf("orphan: %s holds %d files opencenter wrote, but no config names cluster %s: Flux goes on applying them; render --prune deletes them", o.Overlay, len(o.Owned), o.Cluster)
			if c.Check || c.Diff {
				code = exitDiffers
			}
		}
		out = append(out, j)
	}
	return out, code
}

// renderOne plans, compares and (unless --check/--diff) writes one cluster.
func (c *RenderCmd) renderOne(f *config.File, keys *sops.DataKeys, ring *sops.Keyring, r *result) {
	name := f.Name
	r.rep.Cluster = f.Config.OpenCenter.Cluster.ClusterName
	r.rep.Overlay = overlay.Dir(r.rep.Cluster)
	pl, err := plan.Build(f, plan.Options{AllowPlaintextSecrets: c.AllowPlaintextSecrets, Repo: c.Repo, DataKeys: keys, Keys: ring, PolicyRecipients: policyRecipients(name)})
	if err != nil {
		planFailed(r, name, err)
		return
	}
	r.rep.Files = len(pl.Files)
	changes, err := overlay.Diff(c.Repo, &pl.Tree, overlay.WriteOptions{Force: c.Force, Adopt: c.Adopt, Only: c.Only, Keep: pl.KeepHint})
	var refused *overlay.RefusedError
	var unsafe *overlay.UnsafeError
	switch {
	case errors.As(err, &refused):
		// --check and --diff show the refused files with the others.
	case errors.As(err, &unsafe):
		r.errorf("opencenter: %v", err)
		r.code = exitRefused
		return
	case err != nil:
		r.errorf("opencenter: %v", err)
		r.code = exitBadInput
		return
	}
	for _, w := range pl.Warnings {
		r.warnf("warning: %s", w)
	}
	unchecked := 0
	for _, ch := range changes {
		if ch.Op == overlay.OpUnchecked || ch.Unconfirmed && (c.Check || c.Diff) {
			unchecked++
		}
		switch {
		case ch.Op == overlay.OpUnchecked:
			r.notef("note: %s/%s: encrypted, present and owned, for the right recipients; its content was not compared (no key opened the config's secrets)", pl.Overlay, ch.Path)
		case ch.Unconfirmed && (c.Check || c.Diff):
			r.notef("note: %s/%s: encrypted; its content was not compared (the config's secrets are plaintext, so the file has no seal, and no age key of yours opens it)", pl.Overlay, ch.Path)
		case ch.Unconfirmed:
			r.notef("note: %s/%s: encrypted again: nothing proved that the file on disk holds the same secret (the config's secrets are plaintext, so the file has no seal, and no age key of yours opens it)", pl.Overlay, ch.Path)
		}
	}
	if !c.Check && !c.Diff {
		for _, p := range pl.SecretFiles {
			r.warnf("warning: %s/%s: secret material written in plaintext (--allow-plaintext-secrets)", pl.Overlay, p)
		}
	}
	if c.Adopt && refused == nil {
		if units := unsafeTakeover(pl, changes); len(units) > 0 {
			r.errorf("opencenter: %s: refusing to adopt: Flux would prune these Kustomizations of the old overlay, which opencenter does not render, and delete what they applied, HelmReleases included; nothing was written:\n  %s\nset suspend: true in them, commit, let Flux apply it, then render --adopt again (docs/user/migrating-from-opencenter-cli.md)", pl.Overlay, strings.Join(units, "\n  "))
			r.code = exitRefused
			return
		}
	}
	var diffs []overlay.Change // what --check and --diff report; a render needs none
	if c.Check || c.Diff {
		diffs = overlay.Differences(changes)
		if refused != nil {
			diffs = append(diffs, refused.Changes()...)
			slices.SortFunc(diffs, func(a, b overlay.Change) int { return strings.Compare(a.Path, b.Path) })
		}
	}
	switch {
	case c.Check:
		for _, ch := range diffs {
			fmt.Fprintf(&r.out, "%s %s/%s\n", ch.Op, pl.Overlay, ch.Path)
			r.rep.Changes = append(r.rep.Changes, changeJSON{string(ch.Op), ch.Path, ch.Adopted})
		}
	case c.Diff:
		for _, ch := range diffs {
			r.out.WriteString(unifiedDiff(pl, ch))
			r.rep.Changes = append(r.rep.Changes, changeJSON{string(ch.Op), ch.Path, ch.Adopted})
		}
	case refused != nil:
		// Nothing is written.
	default:
		if err := overlay.Apply(c.Repo, &pl.Tree, changes); err != nil {
			r.errorf("opencenter: %s: writing: %v", pl.Overlay, err)
			r.code = exitBadInput
			return
		}
		for _, ch := range changes {
			if ch.Op == overlay.OpCreate || ch.Op == overlay.OpUpdate || ch.Op == overlay.OpDelete {
				r.rep.Changes = append(r.rep.Changes, changeJSON{string(ch.Op), ch.Path, ch.Adopted})
			}
			if c.Adopt {
				what := string(ch.Op)
				if ch.Adopted && ch.Op == overlay.OpUpdate {
					what = "replace"
				}
				fmt.Fprintf(&r.out, "%s %s/%s\n", what, pl.Overlay, ch.Path)
			}
		}
		r.rep.Summary = summary(pl, changes)
		fmt.Fprintln(&r.out, r.rep.Summary)
	}
	if (c.Check || c.Diff) && len(diffs) > 0 {
		r.code = exitDiffers
	}
	if refused != nil {
		for _, f := range refused.Files {
			r.rep.Refused = append(r.rep.Refused, refusalJSON{f.Path, f.State.String(), string(f.Op), f.Keep})
		}
		r.errorf("opencenter: %v", refused)
		r.code = exitRefused
	}
	if c.RequireKeys && unchecked > 0 {
		r.errorf("opencenter: %s: --require-keys: %d encrypted files were not compared (no age key)", pl.Overlay, unchecked)
		r.code = max(r.code, exitBadInput)
	}
}

// planFailed records why the plan of config name failed: a refusal (a
// symbolic link out of the repository, files the render may not
// overwrite: exit 3) or problems of the config (exit 2).
func planFailed(r *result, name string, err error) {
	var unsafe *overlay.UnsafeError
	var escape *inrepo.EscapeError
	var refused *overlay.RefusedError
	if errors.As(err, &unsafe) || errors.As(err, &escape) || errors.As(err, &refused) {
		r.errorf("opencenter: %s: %v", name, err)
		r.code = max(r.code, exitRefused)
		return
	}
	r.problems(diag.AsList(name, err), exitBadInput)
}

// unifiedDiff is the diff of one change, secret values redacted.
func unifiedDiff(pl *plan.Plan, ch overlay.Change) string {
	p := pl.Overlay + "/" + ch.Path
	a, b := "a/"+p, "b/"+p
	if ch.Op == overlay.OpCreate {
		a = "/dev/null"
	}
	if ch.Op == overlay.OpDelete {
		b = "/dev/null"
	}
	old, new := ch.Old, ch.New
	if overlay.IsSecret(&pl.Tree, ch) {
		old, new = overlay.Redact(old), overlay.Redact(new)
	}
	if ch.New == nil && ch.Op != overlay.OpDelete {
		new = []byte("(encrypted: its content is known only with the key)\n")
	}
	return udiff.Unified(a, b, string(old), string(new))
}

func summary(p *plan.Plan, changes []overlay.Change) string {
	n := map[overlay.Op]int{}
	for _, c := range changes {
		n[c.Op]++
	}
	return fmt.Sprintf("%s: %d files, %d created, %d updated, %d deleted (from %s)",
		p.Overlay, len(p.Files), n[overlay.OpCreate], n[overlay.OpUpdate], n[overlay.OpDelete], path.Base(p.Config))
}

// progress draws a bar on stderr when it is a terminal and there are more
// than a handful of clusters; otherwise it prints nothing.
type progress struct {
	w     io.Writer
	total int
	n     atomic.Int64
	mu    sync.Mutex
	on    bool
}

// progressMin is the number of clusters from which a bar is worth drawing.
const progressMin = 8

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	if f, ok := w.(*os.File); ok && total >= progressMin {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) done() {
	n := p.n.Add(1)
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	const width = 30
	filled := int(n) * width / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d clusters", strings.Repeat("#", filled), strings.Repeat(".", width-filled), n, p.total)
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
