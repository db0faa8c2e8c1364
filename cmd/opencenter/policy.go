package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// policy is the .sops.yaml creation rule that says whom a config's secrets
// are encrypted for. It, and not the file's own sops: block, is trusted:
// anyone with write access can add a recipient to the block, and the
// block's recipients are not authenticated, where a change to .sops.yaml
// is a plain line in a reviewed diff.
type policy struct {
	// File is the .sops.yaml the rule comes from.
	File string
	Rule *sops.CreationRule
}

// sopsPolicy returns the policy of config: the first matching creation
// rule of the nearest .sops.yaml at or above the config's directory. sops
// itself looks from its working directory; looking from the config's
// gives the same answer wherever the command runs.
func sopsPolicy(configFile string) (*policy, error) {
	dir := filepath.Dir(configFile)
	file, err := sops.FindConfigFile(dir)
	if err != nil {
		return nil, fmt.Errorf("no %s in %s or above it: add one with a creation rule for %s (see docs/user/secrets.md)", sops.ConfigFileName, dir, filepath.Base(configFile))
	}
	var data []byte
	if abs, _ := filepath.Abs(dir); filepath.Dir(file) == abs {
		// In the config's repository: not through a link out of it.
		data, err = inrepo.ReadFile(dir, sops.ConfigFileName)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, err
	}
	cfg, err := sops.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "sops: "))
	}
	rule, err := cfg.FindRule(filepath.Dir(file), configFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "sops: "))
	}
	if len(rule.Age) == 0 {
		return nil, fmt.Errorf("%s: the creation rule for %s names no age recipients (%s)", file, filepath.Base(configFile), strings.Join(rule.Unsupported, ", "))
	}
	return &policy{File: file, Rule: rule}, nil
}

// errNoRule says that no .sops.yaml covers a new config and no
// recipients were given to write one for.
var errNoRule = errors.New("no .sops.yaml creation rule covers it")

// ruleFor is the creation rule a new config (name, in repo) follows: that
// of the .sops.yaml there is, which must name recipients if any are given;
// else a new one at the repository root for recipients, returned with the
// text to write there (nil when the file exists). errNoRule when there is
// neither a rule nor a recipient.
func ruleFor(repo, name string, recipients []string) (*policy, []byte, error) {
	if p, err := sopsPolicy(name); err == nil {
		if len(recipients) > 0 && !slices.Equal(set(p.Rule.Age), set(recipients)) {
			return nil, nil, badInput(fmt.Errorf("%s names %s for %s already: change its rule, not --age-recipient", p.File, strings.Join(p.Rule.Age, ", "), filepath.Base(name)))
		}
		return p, nil, nil
	}
	file := filepath.Join(repo, sops.ConfigFileName)
	if _, err := os.Lstat(file); err == nil {
		return nil, nil, badInput(fmt.Errorf("%s has no creation rule for %s: add one (path_regex, age, encrypted_regex: ^secrets$, mac_only_encrypted: true)", file, filepath.Base(name)))
	}
	if len(recipients) == 0 {
		return nil, nil, errNoRule
	}
	for _, r := range recipients {
		if _, err := sops.ParseRecipient(r); err != nil {
			return nil, nil, badInput(fmt.Errorf("--age-recipient %s: %v", r, err))
		}
	}
	text := []byte("# Whom the secrets of the cluster configs are encrypted for (opencenter\n" +
		"# and sops read this file); the overlays' Secrets follow the same rule.\n" +
		"creation_rules:\n" +
		"  - path_regex: '\\.[a-z0-9-]+-config\\.yaml$'\n" +
		"    encrypted_regex: '^secrets$'\n" +
		"    mac_only_encrypted: true\n" +
		"    age: " + strings.Join(recipients, ",") + "\n")
	cfg, err := sops.ParseConfig(text)
	if err != nil {
		return nil, nil, err
	}
	rule, err := cfg.FindRule(repo, name)
	if err != nil {
		return nil, nil, err
	}
	return &policy{File: file, Rule: rule}, text, nil
}

// recipientDrift compares the recipients a file's sops: block names with
// the policy's: extra are named by the file only (whoever holds one of
// them can read the secrets), missing by the policy only.
func (p *policy) recipientDrift(named []string) (extra, missing []string) {
	want := set(p.Rule.Age)
	got := set(named)
	for _, r := range got {
		if !slices.Contains(want, r) {
			extra = append(extra, r)
		}
	}
	for _, r := range want {
		if !slices.Contains(got, r) {
			missing = append(missing, r)
		}
	}
	return extra, missing
}

// set returns the distinct trimmed strings of s, sorted.
func set(s []string) []string {
	out := make([]string, 0, len(s))
	for _, v := range s {
		out = append(out, strings.TrimSpace(v))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkRecipients reports a config whose sops: block names recipients its
// policy does not (an error: they can read its secrets) or lacks some the
// policy names (a warning). A config without a policy is a warning: its
// recipients cannot be checked.
func checkRecipients(f *config.File) (diag.List, []string, error) {
	if f.Encryption.Line == 0 {
		return nil, nil, nil
	}
	p, err := sopsPolicy(f.Name)
	var esc *inrepo.EscapeError
	switch {
	case errors.As(err, &esc):
		return nil, nil, err
	case err != nil:
		return nil, []string{fmt.Sprintf("%s: the recipients of its secrets are not checked: %v", f.Name, err)}, nil
	}
	extra, missing := p.recipientDrift(f.Encryption.Recipients)
	var diags diag.List
	var warnings []string
	if len(extra) > 0 {
		diags = append(diags, diag.Diag{File: f.Name, Line: f.Encryption.Line, Col: f.Encryption.Col, Path: "sops.age",
			Msg: fmt.Sprintf("the secrets are encrypted for %s, which %s does not name for this file (it names %s): whoever holds that key can read them; run 'opencenter secrets updatekeys %s' to encrypt them for the rule's recipients alone, with a new data key",
				strings.Join(extra, ", "), p.File, strings.Join(set(p.Rule.Age), ", "), f.Name)})
	}
	if len(missing) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %s names %s for this file, for which its secrets are not encrypted: run 'opencenter secrets updatekeys %s'",
			f.Name, p.File, strings.Join(missing, ", "), f.Name))
	}
	return diags, warnings, nil
}

// policyError is the exit error of a policy that could not be read: 3
// for a link out of the repository, 2 otherwise.
func policyError(err error) error {
	var esc *inrepo.EscapeError
	if errors.As(err, &esc) {
		return &exitError{exitRefused, err}
	}
	return badInput(err)
}

// policyRecipients are the recipients of the config's policy, for the
// overlay's sops rules that name none; nil when it has none.
func policyRecipients(configFile string) []string {
	p, err := sopsPolicy(configFile)
	if err != nil {
		return nil
	}
	return p.Rule.Age
}
