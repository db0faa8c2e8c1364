package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/configedit"
	"github.com/opencenter-dev/opencenter/internal/importv2"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// ImportCmd writes opencenter configs from openCenter-cli's.
type ImportCmd struct {
	Files                 []string `arg:"" name:"FILE" type:"existingfile" help:"openCenter-cli v2 cluster configs, such as ~/.config/opencenter/clusters/blueprints/<org>/<cluster>/<cluster>-config.yaml."`
	RepoFlag              `embed:""`
	AgeRecipient          []string `placeholder:"AGE1..." help:"An age public key to encrypt the secrets for (repeatable), written as a .sops.yaml creation rule for the configs when the repository has none; default: the recipients of the .sops.yaml rule there is."`
	AllowPlaintextSecrets bool     `help:"Write the secrets in plaintext when no .sops.yaml creation rule covers the new config and no --age-recipient is given (then encrypt them with 'opencenter secrets encrypt')."`

	// newRules is the .sops.yaml to write for --age-recipient, by file.
	newRules map[string][]byte
}

// imported is one config ready to be written.
type imported struct {
	from, name string
	data       []byte
	plain      []byte            // data before its secrets are encrypted
	local      map[string]string // file -> values
	r          *importv2.Result
	plaintext  bool
}

// Run translates every file, and writes nothing unless all translate:
// .<cluster>-config.yaml at the repository root, with its secrets
// encrypted, and each unit's local/values.yaml of override_values.
func (c *ImportCmd) Run(s *Streams) error {
	if err := c.resolve(nil); err != nil {
		return err
	}
	var all []*imported
	var problems []string
	for _, f := range c.Files {
		im, err := c.translate(f)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		all = append(all, im)
	}
	if len(problems) > 0 {
		return badInput(errors.New(strings.Join(problems, "\n")))
	}
	for _, f := range sortedKeys(c.newRules) {
		if err := writeNew(f, c.newRules[f]); err != nil {
			return err
		}
		if !s.Quiet {
			fmt.Fprintf(s.Out, "wrote %s: secrets are encrypted for %s\n", f, strings.Join(c.AgeRecipient, ", "))
		}
	}
	for _, im := range all {
		if err := writeNew(im.name, im.data); err != nil {
			return err
		}
		for _, f := range sortedKeys(im.local) {
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				return err
			}
			if err := writeNew(f, []byte(im.local[f])); err != nil {
				return err
			}
		}
		c.print(s, im)
	}
	return nil
}

// translate reads one file and prepares what import writes of it.
func (c *ImportCmd) translate(f string) (*imported, error) {
	data, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	r, err := importv2.Translate(f, data)
	if err != nil {
		return nil, err
	}
	if !config.IsDNSLabel(r.ClusterName) {
		return nil, fmt.Errorf("%s: opencenter.cluster.cluster_name %q: expected a DNS-1123 label, which names the config and the overlay", f, r.ClusterName)
	}
	im := &imported{from: f, name: filepath.Join(c.Repo, "."+r.ClusterName+"-config.yaml"), r: r, local: map[string]string{}}
	if _, err := os.Lstat(im.name); err == nil {
		return nil, fmt.Errorf("%s: %s exists: not overwriting it", f, im.name)
	}
	for svc, values := range r.LocalValues {
		u, err := unitNamed(svc)
		if err != nil {
			r.Report = append(r.Report, importv2.Item{Path: "opencenter.services." + svc + ".override_values", Value: "(no unit " + svc + " to take it)"})
			continue
		}
		lf := filepath.Join(c.Repo, filepath.FromSlash(path.Join(overlay.Dir(r.ClusterName), u.Root, "local", "values.yaml")))
		if _, err := os.Lstat(lf); err == nil {
			return nil, fmt.Errorf("%s: %s exists: not overwriting it", f, lf)
		}
		im.local[lf] = values
	}
	_, hasSecrets := r.Config["secrets"]
	var p *policy
	if hasSecrets || len(c.AgeRecipient) > 0 {
		var text []byte
		p, text, err = ruleFor(c.Repo, im.name, c.AgeRecipient)
		switch {
		case errors.Is(err, errNoRule) && c.AllowPlaintextSecrets:
			im.plaintext = true
		case errors.Is(err, errNoRule):
			return nil, fmt.Errorf("%s: its secrets would be written in plaintext: no .sops.yaml creation rule covers %s: pass --age-recipient to write one, or --allow-plaintext-secrets", f, filepath.Base(im.name))
		case err != nil:
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if text != nil {
			if c.newRules == nil {
				c.newRules = map[string][]byte{}
			}
			c.newRules[p.File] = text
		}
	}
	if p != nil {
		// The overlay's Secrets follow the same rule, as init --sops sets.
		r.SetDefault("opencenter.gitops.overlay_units.sops.enabled", true)
	}
	im.data = append([]byte("# Imported by opencenter import from openCenter-cli's "+filepath.Base(f)+".\nschema_version: 1\n"), yamlenc.Marshal(r.Config)...)
	im.plain = im.data
	if p == nil || !hasSecrets {
		return im, nil
	}
	if im.data, err = configedit.EncryptSecrets(im.data, sops.EncryptOptions{Recipients: p.Rule.Age, Rules: sops.Rules{MACOnlyEncrypted: p.Rule.MACOnlyEncrypted}}); err != nil {
		return nil, fmt.Errorf("%s: %s", f, strings.TrimPrefix(err.Error(), "sops: "))
	}
	return im, nil
}

// print reports what one import wrote, derived, left out and left to
// decide; nothing with --quiet.
func (c *ImportCmd) print(s *Streams, im *imported) {
	if s.Quiet {
		return
	}
	fmt.Fprintf(s.Out, "%s: wrote %s\n", im.from, im.name)
	for _, f := range sortedKeys(im.local) {
		fmt.Fprintf(s.Out, "  override_values written to %s\n", f)
	}
	if im.plaintext {
		fmt.Fprintf(s.Err, "warning: %s holds its secrets in plaintext: run 'opencenter secrets encrypt %s' before committing\n", im.name, im.name)
	}
	if len(im.r.Derived) > 0 {
		fmt.Fprintf(s.Out, "  derived from what openCenter-cli renders (%d):\n", len(im.r.Derived))
		for _, it := range im.r.Derived {
			fmt.Fprintf(s.Out, "    %s: %s (%s)\n", it.Path, it.Value, it.Why)
		}
	}
	if len(im.r.Decide) > 0 {
		fmt.Fprintf(s.Out, "  to decide (%d):\n", len(im.r.Decide))
		for _, d := range im.r.Decide {
			fmt.Fprintf(s.Out, "    %s\n", d)
		}
	}
	fmt.Fprintf(s.Out, "  not modelled by opencenter, not written (%d):\n", len(im.r.Report))
	for _, it := range im.r.Report {
		fmt.Fprintf(s.Out, "    %s: %s\n", it.Path, it.Value)
	}
	if im.r.Dropped > 0 {
		fmt.Fprintf(s.Out, "  %d rendering keys at openCenter-cli's defaults left out: opencenter's descriptors render those units\n", im.r.Dropped)
	}
	if _, err := config.Parse(im.name, im.plain, config.LoadOptions{}); err != nil {
		fmt.Fprintf(s.Out, "  still to fix before render ('opencenter validate %s'):\n", im.name)
		for _, l := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(s.Out, "    %s\n", l)
		}
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
