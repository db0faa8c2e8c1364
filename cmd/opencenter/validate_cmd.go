package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// ValidateCmd checks configs the way render does, without writing.
type ValidateCmd struct {
	RepoFlag              `embed:""`
	AllowPlaintextSecrets bool `help:"Accept values from secrets: that would be rendered in plaintext, as render --allow-plaintext-secrets does."`
	RequireKeys           bool `help:"Fail (exit 2) when the encrypted secrets of a config could not be checked because no age key opened them (for CI that holds the key)."`
	OutputFlag            `embed:""`
	Configs               []string `arg:"" optional:"" name:"CONFIG" help:"Config files to check (default: every .*-config.yaml at the root of --repo)."`
}

// Run validates every config and reports all problems at once: loading,
// defaults and validation, the recipients of its secrets, then everything
// render checks before it writes (requirements, the base release, Flux
// ordering and ownership, secrets, and the files render would refuse to
// overwrite). Encrypted secrets need no key: their values are then the
// only thing not checked, and each config's line says so.
func (c *ValidateCmd) Run(s *Streams) error {
	if err := c.resolve(c.Configs); err != nil {
		return err
	}
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	results := make(results, len(files))
	loaded := make([]*config.File, len(files))
	keys := &sops.Keyring{} // the keys file read once
	for i, f := range files {
		r := &results[i]
		r.rep.Config = f
		file, diags, warnings, err := check(f, keys, plan.Options{AllowPlaintextSecrets: c.AllowPlaintextSecrets, Repo: c.Repo, Keys: keys, PolicyRecipients: policyRecipients(f)})
		loaded[i] = file
		for _, w := range warnings {
			r.warnf("warning: %s", w)
		}
		if file != nil && file.Encryption.Locked && c.RequireKeys {
			diags = append(diags, diag.Diag{File: f, Line: file.Encryption.Line, Col: file.Encryption.Col, Path: "sops",
				Msg: "--require-keys: the secrets were not checked: " + file.Encryption.Unopened})
		}
		if len(diags) > 0 {
			r.problems(diags, exitBadInput)
		}
		if err != nil {
			planFailed(r, f, err)
		}
	}
	for i, d := range sameCluster(files, loaded) {
		results[i].problems(diag.List{d}, exitBadInput)
	}
	for i := range results {
		r := &results[i]
		valid := r.code == exitOK
		r.rep.Valid = &valid
		if f := loaded[i]; f != nil {
			r.rep.Cluster = f.Config.OpenCenter.Cluster.ClusterName
			r.rep.Secrets = secretsState(f)
			if valid {
				fmt.Fprintf(&r.out, "%s: %s\n", files[i], validity(f))
			}
		}
	}
	return results.print(s, "validate", c.Output, s.Quiet, nil, exitOK)
}

// secretsState says, for -o json, what validate could check of a
// config's secrets: checked, not-checked (no key), plaintext, or none.
func secretsState(f *config.File) string {
	switch e := &f.Encryption; {
	case e.Locked:
		return "not-checked"
	case e.DataKey != nil:
		return "checked"
	case e.PlaintextSecrets:
		return "plaintext"
	}
	return "none"
}

// validity is validate's word on a valid config: what it checked of its
// secrets, never a plain "valid" when it could not check them.
func validity(f *config.File) string {
	switch e := &f.Encryption; {
	case e.Locked:
		return "valid, but its secrets were not checked: " + e.Unopened + " (they are encrypted for " + strings.Join(e.Recipients, ", ") + ")"
	case e.DataKey != nil:
		return "valid (secrets decrypted and checked)"
	case e.PlaintextSecrets:
		return "valid (secrets in plaintext)"
	}
	return "valid"
}

// check runs the checks render runs before writing, in render's order (a
// config that does not load is not planned), and returns the loaded config
// (nil when it does not load), the warnings too, and a refusal to plan it
// (a symbolic link out of the repository: exit 3).
func check(name string, keys *sops.Keyring, o plan.Options) (*config.File, diag.List, []string, error) {
	f, err := config.Load(name, config.LoadOptions{AllowLocked: true, Keys: keys})
	if err != nil {
		return nil, diag.AsList(name, err), nil, nil
	}
	diags, warnings, err := checkRecipients(f)
	if err != nil {
		return f, nil, nil, err
	}
	more, moreWarnings, err := checkLoaded(f, o)
	return f, append(diags, more...), append(warnings, moreWarnings...), err
}

// checkLoaded plans a loaded config as render would, and returns the plan's
// problems and the warnings (plaintext secrets, unmatched sops rules,
// encrypted files on disk that are not what the config renders), and what
// render would refuse: a link out of the repository, files on disk that
// are foreign or edited by hand.
func checkLoaded(f *config.File, o plan.Options) (diag.List, []string, error) {
	var warnings []string
	if f.Encryption.PlaintextSecrets {
		warnings = append(warnings, fmt.Sprintf("%s: the values under secrets: are in plaintext, in git: encrypt them with 'opencenter secrets encrypt %s'", f.Name, f.Name))
	}
	p, err := plan.Build(f, o)
	var unsafe *overlay.UnsafeError
	switch {
	case errors.As(err, &unsafe):
		return nil, warnings, err
	case err != nil:
		return diag.AsList(f.Name, err), warnings, nil
	}
	warnings = append(warnings, p.Warnings...)
	if o.Repo == "" {
		return nil, warnings, nil
	}
	changes, err := overlay.Diff(o.Repo, &p.Tree, overlay.WriteOptions{Keep: p.KeepHint})
	var refused *overlay.RefusedError
	if err != nil && !errors.As(err, &refused) {
		return nil, warnings, err
	}
	for _, ch := range changes {
		if ch.Op == overlay.OpUpdate && !ch.Unconfirmed && overlay.IsSecret(&p.Tree, ch) && strings.Contains(string(ch.Old), "ENC[AES256_GCM,") {
			warnings = append(warnings, fmt.Sprintf("%s/%s: the encrypted file on disk is not what %s renders (a secret changed since the last render, or the file was replaced): render writes it again", p.Overlay, ch.Path, f.Name))
		}
	}
	return nil, warnings, err // what render would refuse, validate reports (exit 3)
}
