package main

import (
	"errors"
	"fmt"
	"path"

	"github.com/opencenter-dev/opencenter/internal/diag"
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

// Run renders every config. Each cluster is planned and checked in memory
// first; a cluster with any problem writes nothing.
func (c *RenderCmd) Run(s *Streams) error {
	if c.Check && c.Diff {
		return badInput(errors.New("--check and --diff are exclusive"))
	}
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	var (
		diags   diag.List
		other   []error
		refused bool
		differs bool
	)
	for _, name := range files {
		f, err := load.File(name)
		if err != nil {
			diags = append(diags, load.Errors(name, err)...)
			continue
		}
		plan, err := render.Build(f, render.Options{AllowPlaintextSecrets: c.AllowPlaintextSecrets})
		if err != nil {
			diags = append(diags, load.Errors(name, err)...)
			continue
		}
		changes, err := render.Diff(c.Repo, plan, render.WriteOptions{Force: c.Force, Only: c.Only})
		if err != nil {
			var re *render.RefusedError
			var ue *render.UnsafeError
			if errors.As(err, &re) || errors.As(err, &ue) {
				refused = true
			}
			other = append(other, err)
			continue
		}
		for _, p := range plan.SecretFiles {
			fmt.Fprintf(s.Err, "warning: %s/%s: secret material written in plaintext (--allow-plaintext-secrets)\n", plan.Overlay, p)
		}
		switch {
		case c.Check:
			for _, ch := range changes {
				fmt.Fprintf(s.Out, "%s %s/%s\n", ch.Op, plan.Overlay, ch.Path)
			}
			differs = differs || len(changes) > 0
		case c.Diff:
			for _, ch := range changes {
				p := plan.Overlay + "/" + ch.Path
				a, b := "a/"+p, "b/"+p
				if ch.Op == render.OpCreate {
					a = "/dev/null"
				}
				if ch.Op == render.OpDelete {
					b = "/dev/null"
				}
				fmt.Fprint(s.Out, udiff.Unified(a, b, ch.Old, ch.New))
			}
			differs = differs || len(changes) > 0
		default:
			if err := render.Apply(c.Repo, plan, changes); err != nil {
				other = append(other, fmt.Errorf("%s: writing: %w", plan.Overlay, err))
				continue
			}
			fmt.Fprintln(s.Out, summary(plan, changes))
		}
	}
	for _, e := range other {
		fmt.Fprintln(s.Err, "opencenter:", e)
	}
	switch {
	case refused:
		if len(diags) > 0 {
			fmt.Fprintln(s.Err, diags.Error())
		}
		return &exitError{exitRefused, errors.New("")}
	case len(diags) > 0 || len(other) > 0:
		return badInput(diags)
	case differs:
		return &exitError{exitDiffers, errors.New("")}
	}
	return nil
}

func summary(p *render.Plan, changes []render.Change) string {
	n := map[render.Op]int{}
	for _, c := range changes {
		n[c.Op]++
	}
	return fmt.Sprintf("%s: %d files, %d created, %d updated, %d deleted (from %s)",
		p.Overlay, len(p.Files), n[render.OpCreate], n[render.OpUpdate], n[render.OpDelete], path.Base(p.Config))
}
