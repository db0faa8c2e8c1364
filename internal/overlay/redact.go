package overlay

import (
	"bytes"
	"regexp"
)

// Redacted replaces a value in a redacted file.
const Redacted = "<redacted>"

var (
	keyLine = regexp.MustCompile(`^(\s*(?:- )?)([A-Za-z0-9_./-]+):(\s.*)?$`)
	// safeKeys name structure, never secret material.
	safeKeys = map[string]bool{
		"apiVersion": true, "kind": true, "metadata": true, "name": true, "namespace": true,
		"labels": true, "annotations": true, "type": true, "data": true, "stringData": true,
		"sops": true, "age": true, "recipient": true, "lastmodified": true, "version": true,
		"encrypted_regex": true, "mac_only_encrypted": true, "unencrypted_suffix": true,
	}
)

// Redact returns a secret file with every value replaced by <redacted>: keys
// and structure stay, so a diff still says what changed where, and no value
// is printed, plaintext or encrypted. The ownership header is kept.
func Redact(data []byte) []byte {
	var out bytes.Buffer
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		nl := bytes.HasSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch m := keyLine.FindSubmatch(line); {
		case i == 0 && headerRE.Match(line), len(bytes.TrimSpace(line)) == 0:
			out.Write(line)
		case m != nil && (safeKeys[string(m[2])] || len(bytes.TrimSpace(m[3])) == 0):
			out.Write(line)
		case m != nil:
			out.Write(m[1])
			out.Write(m[2])
			out.WriteString(": " + Redacted)
		default:
			out.Write(line[:len(line)-len(bytes.TrimLeft(line, " "))])
			out.WriteString(Redacted)
		}
		if nl {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// IsSecret reports whether a change concerns secret material: a secret file
// of the tree, or content that holds a Secret or SOPS data.
func IsSecret(p *Tree, c Change) bool {
	if f, ok := p.File(c.Path); ok && f.Secret {
		return true
	}
	for _, d := range [][]byte{c.Old, c.New} {
		if bytes.Contains(d, []byte("\nkind: Secret")) || bytes.Contains(d, []byte("ENC[AES256_GCM,")) {
			return true
		}
	}
	return false
}
