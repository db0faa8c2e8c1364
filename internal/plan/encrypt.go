package plan

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// defaultSOPSRule is the overlay's one sops rule when the config lists
// none: every file, its Secrets' data encrypted.
var defaultSOPSRule = config.SOPSRule{PathRegex: `\.yaml$`, EncryptedRegex: "^(data|stringData)$"}

// withSOPSDefaults returns c, or a copy of it whose overlay sops rules are
// filled in: the default rule when there is none, and the recipients of
// the config's own creation rule where a rule names none. The recipients
// are then written once, in .sops.yaml, for the config and its overlay.
func withSOPSDefaults(c *config.Config, policy []string) *config.Config {
	s := &c.OpenCenter.GitOps.OverlayUnits.SOPS
	if !s.Enabled || len(s.Rules) > 0 && !slices.ContainsFunc(s.Rules, func(r config.SOPSRule) bool { return len(r.AgeRecipients) == 0 }) {
		return c
	}
	rules := slices.Clone(s.Rules)
	if len(rules) == 0 {
		rules = []config.SOPSRule{defaultSOPSRule}
	}
	for i := range rules {
		if len(rules[i].AgeRecipients) == 0 {
			rules[i].AgeRecipients = policy
		}
	}
	copied := *c
	copied.OpenCenter.GitOps.OverlayUnits.SOPS.Rules = rules
	return &copied
}

// compileRules compiles the path regexps of the sops rules when sops is
// enabled (validation has checked that they compile).
func compileRules(s *config.SOPS) []*sops.PathPattern {
	if !s.Enabled {
		return nil
	}
	out := make([]*sops.PathPattern, len(s.Rules))
	for i, r := range s.Rules {
		out[i], _ = sops.PathPatternOf(r.PathRegex)
	}
	return out
}

// sopsRule returns the index of the rule sops would pick for a file at p
// (relative to the overlay, where .sops.yaml is): the first whose
// path_regex matches; -1 for none.
func (b *builder) sopsRule(p string) int {
	for i, re := range b.rules {
		if re != nil && re.MatchString(p) {
			return i
		}
	}
	return -1
}

// encryptSecrets encrypts every secret file a sops rule covers for that
// rule's recipients, in the format sops writes, and reports sops rules that
// match no rendered file. A file on disk that is proven to hold today's
// plaintext for the same rule keeps its bytes, since encryption is
// randomised: by its seal when the config's secrets are encrypted
// (sealer), else by decrypting it with the user's age keys. A config whose
// secrets no key opened has only placeholders: its secret files are marked
// Unverified instead.
func (b *builder) encryptSecrets() {
	s := &b.c.OpenCenter.GitOps.OverlayUnits.SOPS
	used := make([]bool, len(b.rules))
	ruleIDs := make([][]byte, len(b.rules))           // sealRule, once per rule
	dataKeys := make([]*sops.SharedKey, len(b.rules)) // looked up once per rule
	for i := range b.rules {
		ruleIDs[i] = sealRule(&s.Rules[i])
	}
	type secret struct {
		path string
		rule int
	}
	var secrets []secret // the files to encrypt, in path order
	for p, f := range b.files {
		if i := b.sopsRule(p); i >= 0 {
			used[i] = true
			if f.Secret {
				secrets = append(secrets, secret{p, i})
			}
		}
	}
	slices.SortFunc(secrets, func(a, b secret) int { return strings.Compare(a.path, b.path) })
	var seals *sealer
	if len(secrets) > 0 && b.f.Encryption.DataKey != nil {
		seals = newSealer(b.f.Encryption.DataKey)
	}
	for i, r := range s.Rules {
		if s.Enabled && len(r.AgeRecipients) == 0 {
			b.diags = append(b.diags, b.f.Diag(fmt.Sprintf("opencenter.gitops.overlay_units.sops.rules[%d].age_recipients", i),
				"no recipients: the rule names none, and no .sops.yaml creation rule for %s names any; list them here, or add a .sops.yaml beside the config (opencenter init --sops)", path.Base(b.f.Name)))
			return
		}
	}
	for _, sf := range secrets {
		p, f, rule := sf.path, b.files[sf.path], &s.Rules[sf.rule]
		f.Recipients = rule.AgeRecipients
		if b.f.Encryption.Locked {
			f.Unverified = true
			continue
		}
		plain := overlay.Body(f.Data)
		old := b.ownedOnDisk(p)
		if old != nil && seals != nil && seals.holds(b.p.Cluster, p, plain, ruleIDs[sf.rule], old) {
			// The file on disk already holds this plaintext: no encryption,
			// and a header of today's form.
			f.Data = overlay.WithSOPSHeader(b.cfgName(), f.Unit, overlay.Body(old), overlay.HeaderSeal(old))
			continue
		}
		if b.o.DataKeys == nil {
			b.o.DataKeys = &sops.DataKeys{}
		}
		dataKey := dataKeys[sf.rule]
		if dataKey == nil {
			var err error
			if dataKey, err = b.o.DataKeys.For(rule.AgeRecipients); err != nil {
				b.errorf(unitByName(f.Unit), "encrypting %s: %v", p, err)
				continue
			}
			dataKeys[sf.rule] = dataKey
		}
		enc, err := sops.Encrypt(plain, sops.EncryptOptions{
			Recipients: rule.AgeRecipients,
			Rules:      sops.Rules{EncryptedRegex: rule.EncryptedRegex},
			Key:        dataKey, // one age operation per recipient per render, not per file
		})
		if err != nil {
			b.errorf(unitByName(f.Unit), "encrypting %s: %s", p, strings.TrimPrefix(err.Error(), "sops: "))
			continue
		}
		if !bytes.Contains(enc, []byte("ENC[AES256_GCM,")) {
			b.errorf(unitByName(f.Unit), "the sops rule for %s (path_regex %q) encrypts none of its values (encrypted_regex %q): widen encrypted_regex, such as ^(data|stringData)$", p, rule.PathRegex, rule.EncryptedRegex)
			continue
		}
		if old != nil && seals == nil {
			// No seal to prove the file on disk: it is kept when it
			// decrypts to what the new one does.
			switch same, err := b.samePlaintext(old, enc, rule); {
			case errors.Is(err, sops.ErrNoMatchingIdentity):
				f.Unconfirmed = true
			case same:
				f.Data = overlay.WithSOPSHeader(b.cfgName(), f.Unit, overlay.Body(old), "")
				continue
			}
		}
		seal := ""
		if seals != nil {
			seal = seals.seal(b.p.Cluster, p, plain, ruleIDs[sf.rule], enc)
		}
		f.Data = overlay.WithSOPSHeader(b.cfgName(), f.Unit, enc, seal)
	}
	for i, ok := range used {
		if !ok {
			b.p.Warnings = append(b.p.Warnings, fmt.Sprintf("%s: sops rule %d (path_regex %q) matches no file of the overlay: paths are relative to the overlay, where .sops.yaml is (services/loki/object-store-secret.yaml)", b.f.Name, i, s.Rules[i].PathRegex))
		}
	}
}

// sealRule is what a seal records of a secret's sops rule: its
// recipients and selector, so that changing either re-encrypts.
func sealRule(rule *config.SOPSRule) []byte {
	return fmt.Appendf(nil, "%s\x00%s", strings.Join(rule.AgeRecipients, ","), rule.EncryptedRegex)
}

// cfgName is the config's name as headers record it.
func (b *builder) cfgName() string { return path.Base(b.f.Name) }

// ownedOnDisk returns the file at overlay path p on disk when opencenter
// wrote it; nil otherwise, or without a repository or for a new overlay.
func (b *builder) ownedOnDisk(p string) []byte {
	if b.o.Repo == "" || b.newOverlay {
		return nil
	}
	// A link is never read: Diff refuses it as a target.
	rel := path.Join(b.p.Overlay, p)
	if info, err := os.Lstat(filepath.Join(b.o.Repo, filepath.FromSlash(rel))); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	data, err := inrepo.ReadFile(b.o.Repo, rel)
	if err != nil {
		return nil
	}
	if st, _ := overlay.Owner(data); st != overlay.Owned {
		return nil
	}
	return data
}

// samePlaintext reports whether old, an encrypted file on disk, holds
// the plaintext of enc, the same file encrypted afresh, for the same
// rule, opening both with the user's age keys. The error wraps
// sops.ErrNoMatchingIdentity when no key of the user's opens them.
func (b *builder) samePlaintext(old, enc []byte, rule *config.SOPSRule) (bool, error) {
	var ids []age.Identity
	if b.o.Keys != nil {
		ids, _ = b.o.Keys.Identities()
	}
	was, meta, err := sops.Decrypt(overlay.Body(old), ids)
	if err != nil {
		return false, err
	}
	now, _, err := sops.Decrypt(enc, ids)
	if err != nil {
		return false, err
	}
	return bytes.Equal(was, now) && meta.EncryptedRegex == rule.EncryptedRegex &&
		slices.Equal(sortedSet(meta.Recipients), sortedSet(rule.AgeRecipients)), nil
}

// sortedSet returns the distinct strings of s, trimmed and sorted.
func sortedSet(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strings.TrimSpace(v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
