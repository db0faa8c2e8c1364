package render

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

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

// plaintextKey keys the fingerprints of a config whose secrets are in
// plaintext: they are in git for anyone to read already, so a fingerprint
// has nothing to hide.
var plaintextKey = []byte("opencenter: the config's secrets are plaintext")

// encryptSecrets encrypts every secret file a sops rule covers for that
// rule's recipients, in the format sops writes, and reports sops rules that
// match no rendered file. A config whose secrets no key opened has only
// placeholders: its secret files are marked Unverified instead.
func (b *builder) encryptSecrets() {
	s := &b.c.OpenCenter.GitOps.OverlayUnits.SOPS
	used := make([]bool, len(b.rules))
	suffixes := make([][]byte, len(b.rules))          // fingerprintSuffix, once per rule
	dataKeys := make([]*sops.SharedKey, len(b.rules)) // looked up once per rule
	for i := range b.rules {
		suffixes[i] = fingerprintSuffix(&s.Rules[i])
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
	var fingerprints *sops.Fingerprinter
	if len(secrets) > 0 && !b.f.Encryption.Locked {
		key := b.f.Encryption.DataKey
		if key == nil {
			key = plaintextKey
		}
		fingerprints = sops.NewFingerprinter(key)
	}
	for _, sf := range secrets {
		p, f, rule := sf.path, b.files[sf.path], &s.Rules[sf.rule]
		f.Recipients = rule.AgeRecipients
		if b.f.Encryption.Locked {
			f.Unverified = true
			continue
		}
		plain := body(f.Data)
		// The recipients and selector are part of what is fingerprinted, so
		// changing either re-encrypts.
		f.Fingerprint = fingerprints.Of(plain, suffixes[sf.rule])
		if old := b.unchangedSecret(p, f.Fingerprint); old != nil {
			f.Data = withSOPSHeader(b.cfgName(), f.Unit, old, f.Fingerprint)
			continue // the file on disk already holds this plaintext: no encryption
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
		// The header, then the file sops would write, in the plan's arena.
		out, err := b.arena.fileWith(b.cfgName(), f.Unit, f.Fingerprint, func(header []byte) ([]byte, error) {
			return sops.AppendEncrypt(header, plain, sops.EncryptOptions{
				Recipients: rule.AgeRecipients,
				Rules:      sops.Rules{EncryptedRegex: rule.EncryptedRegex},
				Key:        dataKey, // one age operation per recipient per render, not per file
			})
		})
		if err != nil {
			b.errorf(unitByName(f.Unit), "encrypting %s: %s", p, strings.TrimPrefix(err.Error(), "sops: "))
			continue
		}
		if !bytes.Contains(body(out), []byte("ENC[AES256_GCM,")) {
			b.errorf(unitByName(f.Unit), "the sops rule for %s (path_regex %q) encrypts none of its values (encrypted_regex %q): widen encrypted_regex, such as ^(data|stringData)$", p, rule.PathRegex, rule.EncryptedRegex)
			continue
		}
		f.Data = out
	}
	for i, ok := range used {
		if !ok {
			b.p.Warnings = append(b.p.Warnings, fmt.Sprintf("%s: sops rule %d (path_regex %q) matches no file of the overlay: paths are relative to the overlay, where .sops.yaml is (services/loki/object-store-secret.yaml)", b.f.Name, i, s.Rules[i].PathRegex))
		}
	}
}

// fingerprintSuffix is what follows a secret's plaintext in its
// fingerprint: the rule's recipients and selector.
func fingerprintSuffix(rule *config.SOPSRule) []byte {
	return fmt.Appendf(nil, "\x00%s\x00%s", strings.Join(rule.AgeRecipients, ","), rule.EncryptedRegex)
}

// cfgName is the config's name as headers record it.
func (b *builder) cfgName() string { return path.Base(b.f.Name) }

// unchangedSecret returns the encrypted body of the owned file at overlay
// path p on disk when its header records the fingerprint fp, so a re-render
// keeps its bytes without encrypting again; nil otherwise, or without a
// repository or for a new overlay.
func (b *builder) unchangedSecret(p, fp string) []byte {
	if b.o.Repo == "" || b.newOverlay {
		return nil
	}
	old, err := readFile(filepath.Join(b.o.Repo, filepath.FromSlash(b.p.Overlay), filepath.FromSlash(p)))
	if err != nil {
		return nil
	}
	if st, _ := ownership(old); st != Owned || headerFingerprint(old) != fp {
		return nil
	}
	return body(old)
}
