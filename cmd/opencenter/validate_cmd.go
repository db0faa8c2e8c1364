package main

import (
	"fmt"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/load"
)

// ValidateCmd checks configs without rendering.
type ValidateCmd struct {
	Repo    string   `default:"." placeholder:"DIR" help:"GitOps repository whose root holds the .<cluster>-config.yaml files."`
	Configs []string `arg:"" optional:"" name:"CONFIG" help:"Config files to check (default: every .*-config.yaml at the root of --repo)."`
}

// Run validates every config and reports all problems at once.
func (c *ValidateCmd) Run(s *Streams) error {
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	var all diag.List
	for _, f := range files {
		_, err := load.File(f)
		all = append(all, load.Errors(f, err)...)
	}
	if len(all) > 0 {
		return badInput(all)
	}
	for _, f := range files {
		fmt.Fprintf(s.Out, "%s: valid\n", f)
	}
	return nil
}
