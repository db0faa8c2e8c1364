package config

import (
	"errors"
	"fmt"
	"strings"

	"filippo.io/age"
	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// Encryption says how a config's values were stored.
type Encryption struct {
	// Recipients are the age public keys the file's sops: block names, none
	// when it is plaintext. The block is not authenticated: anyone may add
	// a recipient to it, so they are checked against .sops.yaml's rule.
	Recipients []string
	// DataKey is the file's SOPS data key, nil when the file is plaintext or
	// Locked. Only key holders have it, which makes it the root of the key
	// that seals rendered secrets.
	DataKey []byte
	// Locked means the values are encrypted and no key opened them: each
	// encrypted value holds a placeholder of its type, so everything but
	// the secret values themselves can be checked.
	Locked bool
	// Unopened says why no key opened a Locked file: none was found (and
	// where they were looked for), or none of those found matches.
	Unopened string
	// PlaintextSecrets reports values under secrets: stored in plaintext.
	PlaintextSecrets bool
	// Line and Col place the sops: key of an encrypted file; 0 for a
	// plaintext one.
	Line, Col int
}

// LoadOptions changes how Load treats an encrypted config.
type LoadOptions struct {
	// AllowLocked loads a config whose secrets no available key decrypts,
	// with placeholders (for --check, --diff, validate and verify in CI).
	AllowLocked bool
	// Keys gives the age identities, loaded once for many configs; nil
	// loads them for this config alone.
	Keys *sops.Keyring
}

func (o LoadOptions) identities() ([]age.Identity, error) {
	if o.Keys != nil {
		return o.Keys.Identities()
	}
	return sops.LoadIdentities()
}

// Placeholder is the value an encrypted string holds in a Locked config.
const Placeholder = "(encrypted)"

// open decrypts, in the node tree, what sops encrypted in it, keeping the
// file's own lines for diagnostics, and removes the sops: block.
func open(name string, root *yaml.Node, o LoadOptions) (Encryption, error) {
	var enc Encryption
	if root.Kind != yaml.MappingNode {
		return enc, nil
	}
	at := -1
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "sops" {
			at = i
		}
	}
	if at < 0 {
		enc.PlaintextSecrets = hasValues(child(root, "secrets"))
		return enc, nil
	}
	sopsKey := root.Content[at]
	enc.Line, enc.Col = sopsKey.Line, sopsKey.Column
	fail := func(format string, args ...any) (Encryption, error) {
		return enc, diag.List{{File: name, Line: sopsKey.Line, Col: sopsKey.Column, Path: "sops", Msg: fmt.Sprintf(format, args...)}}
	}
	ids, idErr := o.identities()
	var opened sops.Metadata
	var err error
	if idErr == nil {
		// The sops: entry goes with the decryption.
		opened, err = sops.DecryptNode(root, ids)
	}
	meta := opened
	if idErr != nil || err != nil {
		// Not opened: the block alone says why, or for whom it is.
		var readErr error
		if meta, readErr = sops.ReadNodeMetadata(root); readErr != nil {
			return fail("this sops block cannot be read: %v", strings.TrimPrefix(readErr.Error(), "sops: "))
		}
	}
	enc.Recipients = meta.Recipients
	switch {
	case idErr != nil || errors.Is(err, sops.ErrNoMatchingIdentity):
		enc.Unopened = "no age key of yours matches"
		if idErr != nil {
			enc.Unopened = strings.TrimPrefix(idErr.Error(), "sops: ")
		}
		if !o.AllowLocked {
			return fail("the values are SOPS-encrypted for %s, and no age key opened them (%s): point %s at the key file of one of those recipients",
				strings.Join(meta.Recipients, ", "), enc.Unopened, sops.KeyFileEnv)
		}
		enc.Locked = true
		if err := lock(root, sopsKey); err != nil {
			return fail("%v", err)
		}
		root.Content = append(root.Content[:at:at], root.Content[at+2:]...)
	case err != nil:
		return fail("%s", strings.TrimPrefix(err.Error(), "sops: "))
	default:
		enc.DataKey = opened.DataKey
	}
	return enc, nil
}

func child(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// hasValues reports whether a tree holds a non-empty scalar.
func hasValues(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value != "" && n.Tag != "!!null"
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			continue
		}
		if hasValues(c) {
			return true
		}
	}
	return false
}

// lock puts a placeholder of its type in each encrypted value; encrypted
// values outside secrets: would leave the config unreadable, so they need
// the key.
func lock(root, sopsKey *yaml.Node) error {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k == sopsKey {
			continue
		}
		if err := placeholders(root.Content[i+1], k.Value == "secrets"); err != nil {
			return err
		}
	}
	return nil
}

func placeholders(n *yaml.Node, underSecrets bool) error {
	if n.Kind == yaml.ScalarNode {
		if !strings.HasPrefix(n.Value, "ENC[AES256_GCM,") {
			return nil
		}
		if !underSecrets {
			return fmt.Errorf("line %d holds an encrypted value outside secrets:, which needs the key to read", n.Line)
		}
		n.Style = 0
		switch t := encType(n.Value); t {
		case "int":
			n.Value, n.Tag = "0", "!!int"
		case "float":
			n.Value, n.Tag = "0", "!!float"
		case "bool":
			n.Value, n.Tag = "true", "!!bool"
		default:
			n.Value, n.Tag = Placeholder, "!!str"
		}
		return nil
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			continue
		}
		if err := placeholders(c, underSecrets); err != nil {
			return err
		}
	}
	return nil
}

func encType(v string) string {
	_, t, _ := strings.Cut(v, ",type:")
	return strings.TrimSuffix(t, "]")
}
