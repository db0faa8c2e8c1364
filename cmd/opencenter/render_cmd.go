package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/load"
	"github.com/opencenter-dev/opencenter/internal/render"
	"github.com/opencenter-dev/opencenter/internal/udiff"
)

// RenderCmd renders overlays.
type RenderCmd struct {
	Repo                  string   `default:"." placeholder:"DIR" help:"GitOps repository: configs are read from its root, overlays written to applications/overlays/<cluster>/."`
	Only                  string   `placeholder:"UNIT" enum:"${only_units}" default:"" help:"Re-render only this unit and the aggregates it belongs to (one of: ${units})."`
	Check                 bool     `help:"Write nothing; exit 1 and list the files if the overlay on disk differs."`
	Diff                  bool     `help:"Write nothing; print a unified diff of what would change (exit 1 when non-empty)."`
	Force                 bool     `help:"Overwrite or delete files under owned paths that opencenter did not write or that were edited by hand."`
	AllowPlaintextSecrets bool     `help:"Write values from secrets: into the tree in plaintext (warned on stderr); without it such a config is refused."`
	Configs               []string `arg:"" optional:"" name:"CONFIG" help:"Config files to render (default: every .*-config.yaml at the root of --repo)."`
}

// result is what rendering one cluster produced; results are printed in
// config order once every cluster is done, so output is deterministic.
type result struct {
	out, err strings.Builder
	code     int // exit code of this cluster alone
}

// Run renders every config, clusters in parallel (at most GOMAXPROCS at a
// time). Each cluster is planned and checked in memory first: a cluster with
// any problem writes nothing; the others are written.
func (c *RenderCmd) Run(s *Streams) error {
	if c.Check && c.Diff {
		return badInput(errors.New("--check and --diff are exclusive"))
	}
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	results := make([]result, len(files))
	progress := newProgress(s.Err, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range jobs {
				c.renderOne(files[i], &results[i])
				progress.done()
			}
		})
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	progress.finish()

	code := exitOK
	for i := range results {
		r := &results[i]
		io.WriteString(s.Out, r.out.String())
		io.WriteString(s.Err, r.err.String())
		code = max(code, r.code)
	}
	if code != exitOK {
		return &exitError{code, errors.New("")}
	}
	return nil
}

// renderOne loads, plans, compares and (unless --check/--diff) writes one cluster.
func (c *RenderCmd) renderOne(name string, r *result) {
	f, err := load.File(name, config.LoadOptions{AllowLocked: c.Check || c.Diff})
	if err != nil {
		fmt.Fprintln(&r.err, load.Errors(name, err).Error())
		r.code = exitBadInput
		return
	}
	plan, err := render.Build(f, render.Options{AllowPlaintextSecrets: c.AllowPlaintextSecrets})
	if err != nil {
		fmt.Fprintln(&r.err, load.Errors(name, err).Error())
		r.code = exitBadInput
		return
	}
	changes, err := render.Diff(c.Repo, plan, render.WriteOptions{Force: c.Force, Only: c.Only})
	if err != nil {
		fmt.Fprintln(&r.err, "opencenter:", err)
		var re *render.RefusedError
		var ue *render.UnsafeError
		r.code = exitBadInput
		if errors.As(err, &re) || errors.As(err, &ue) {
			r.code = exitRefused
		}
		return
	}
	for _, w := range plan.Warnings {
		fmt.Fprintf(&r.err, "warning: %s\n", w)
	}
	for _, ch := range changes {
		if ch.Op == render.OpUnchecked {
			fmt.Fprintf(&r.err, "note: %s/%s: encrypted, present and owned, for the right recipients; its content was not compared (no key opened the config's secrets)\n", plan.Overlay, ch.Path)
		}
	}
	if !c.Check && !c.Diff {
		for _, p := range plan.SecretFiles {
			fmt.Fprintf(&r.err, "warning: %s/%s: secret material written in plaintext (--allow-plaintext-secrets)\n", plan.Overlay, p)
		}
	}
	diffs := render.Differences(changes)
	switch {
	case c.Check:
		for _, ch := range diffs {
			fmt.Fprintf(&r.out, "%s %s/%s\n", ch.Op, plan.Overlay, ch.Path)
		}
	case c.Diff:
		for _, ch := range diffs {
			p := plan.Overlay + "/" + ch.Path
			a, b := "a/"+p, "b/"+p
			if ch.Op == render.OpCreate {
				a = "/dev/null"
			}
			if ch.Op == render.OpDelete {
				b = "/dev/null"
			}
			old, new := ch.Old, ch.New
			if render.IsSecret(plan, ch) {
				old, new = render.Redact(old), render.Redact(new)
			}
			if ch.New == nil && ch.Op != render.OpDelete {
				new = []byte("(encrypted: its content is known only with the key)\n")
			}
			r.out.WriteString(udiff.Unified(a, b, old, new))
		}
	default:
		if err := render.Apply(c.Repo, plan, changes); err != nil {
			fmt.Fprintf(&r.err, "opencenter: %s: writing: %v\n", plan.Overlay, err)
			r.code = exitBadInput
			return
		}
		fmt.Fprintln(&r.out, summary(plan, changes))
	}
	if (c.Check || c.Diff) && len(diffs) > 0 {
		r.code = exitDiffers
	}
}

func summary(p *render.Plan, changes []render.Change) string {
	n := map[render.Op]int{}
	for _, c := range changes {
		n[c.Op]++
	}
	return fmt.Sprintf("%s: %d files, %d created, %d updated, %d deleted (from %s)",
		p.Overlay, len(p.Files), n[render.OpCreate], n[render.OpUpdate], n[render.OpDelete], path.Base(p.Config))
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
