package main

import (
	"fmt"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/load"
	"github.com/opencenter-dev/opencenter/internal/render"
)

// ValidateCmd checks configs the way render does, without writing.
type ValidateCmd struct {
	Repo                  string   `default:"." placeholder:"DIR" help:"GitOps repository whose root holds the .<cluster>-config.yaml files."`
	AllowPlaintextSecrets bool     `help:"Accept values from secrets: that would be rendered in plaintext, as render --allow-plaintext-secrets does."`
	Configs               []string `arg:"" optional:"" name:"CONFIG" help:"Config files to check (default: every .*-config.yaml at the root of --repo)."`
}

// Run validates every config and reports all problems at once: loading,
// defaults and validation, then everything render checks before it writes
// (requirements, the base release, Flux ordering and ownership, secrets).
func (c *ValidateCmd) Run(s *Streams) error {
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	var all diag.List
	for _, f := range files {
		all = append(all, check(f, render.Options{AllowPlaintextSecrets: c.AllowPlaintextSecrets})...)
	}
	if len(all) > 0 {
		return badInput(all)
	}
	for _, f := range files {
		fmt.Fprintf(s.Out, "%s: valid\n", f)
	}
	return nil
}

// check runs the checks render runs before writing, in render's order: a
// config that does not load is not planned.
func check(name string, o render.Options) diag.List {
	f, err := load.File(name)
	if err != nil {
		return load.Errors(name, err)
	}
	if _, err := render.Build(f, o); err != nil {
		return load.Errors(name, err)
	}
	return nil
}
