package main

import (
	"fmt"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/render"
	"github.com/opencenter-dev/opencenter/internal/sops"
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
// Encrypted secrets need no key: their values are the only thing not checked.
func (c *ValidateCmd) Run(s *Streams) error {
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	var all diag.List
	loaded := make([]*config.File, len(files))
	keys := &sops.Keyring{} // the keys file read once
	for i, f := range files {
		var diags diag.List
		var warnings []string
		loaded[i], diags, warnings = check(f, keys, render.Options{AllowPlaintextSecrets: c.AllowPlaintextSecrets, Repo: c.Repo})
		all = append(all, diags...)
		for _, w := range warnings {
			fmt.Fprintf(s.Err, "warning: %s\n", w)
		}
	}
	for _, d := range sameCluster(files, loaded) {
		all = append(all, d)
	}
	if len(all) > 0 {
		return badInput(all)
	}
	for _, f := range files {
		fmt.Fprintf(s.Out, "%s: valid\n", f)
	}
	return nil
}

// check runs the checks render runs before writing, in render's order (a
// config that does not load is not planned), and returns the loaded config
// (nil when it does not load) and the warnings too.
func check(name string, keys *sops.Keyring, o render.Options) (*config.File, diag.List, []string) {
	f, err := config.Load(name, config.LoadOptions{AllowLocked: true, Keys: keys})
	if err != nil {
		return nil, diag.AsList(name, err), nil
	}
	diags, warnings := checkLoaded(f, o)
	return f, diags, warnings
}

// checkLoaded plans a loaded config as render would, and returns the plan's
// problems and the warnings (plaintext secrets, unmatched sops rules).
func checkLoaded(f *config.File, o render.Options) (diag.List, []string) {
	var warnings []string
	if f.Encryption.PlaintextSecrets {
		warnings = append(warnings, fmt.Sprintf("%s: the values under secrets: are in plaintext, in git: encrypt them with 'opencenter secrets encrypt %s'", f.Name, f.Name))
	}
	p, err := render.Build(f, o)
	if err != nil {
		return diag.AsList(f.Name, err), warnings
	}
	return nil, append(warnings, p.Warnings...)
}
