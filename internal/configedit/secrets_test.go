package configedit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// regexpValue matches a value under secrets: in handWritten's layout.
var regexpValue = regexp.MustCompile(`(?m)^(      (?:admin_password|database_password|secret_key|identity|known_hosts): |    alert: \{token: )(?:"ENC\[[^"]*"|Zq9flowToken|.*$)`)

// A config indented by two, with comments everywhere, flow mappings, a
// multi-line key, quoted and empty values: what people write.
const handWritten = `# acme-dev: a hand-written config
schema_version: 1
opencenter:
  meta:
    name: acme-dev   # the cluster
  services:
    harbor: {enabled: true}
secrets:
  # Harbor's logins, rotated quarterly.
  services:
    harbor:
      admin_password: Zq9-admin pass   # the UI login
      database_password: "Zq9: needs quotes"
      secret_key: 0123456789abcdef
      registry_password: ''
    alert: {token: Zq9flowToken, empty: ""}
  overlay_units:
    customer_managed:
      identity: |
        -----BEGIN OPENSSH PRIVATE KEY-----
        Zq9keyLine1
        -----END OPENSSH PRIVATE KEY-----
      known_hosts: github.com ssh-ed25519 AAAAZq9
# The end.
`

// TestSecretsInPlace: encrypting in place changes the values under secrets:
// and adds the sops: block, nothing else; the file decrypts, with ours and
// the real sops, to the same values, and decrypting in place gives back
// the very text; a file sops itself encrypted decrypts in place too.
func TestSecretsInPlace(t *testing.T) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	ids := []age.Identity{id}
	opts := sops.EncryptOptions{Recipients: []string{id.Recipient().String()}, Rules: sops.Rules{MACOnlyEncrypted: true}}
	enc, err := EncryptSecrets([]byte(handWritten), opts)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(enc, []byte("Zq9")) {
		t.Fatalf("a secret is left in plaintext:\n%s", enc)
	}
	// The lines are as they were but for the values under secrets:, and the
	// sops: block follows them.
	body, block, ok := strings.Cut(string(enc), "\nsops:\n")
	if !ok || !strings.HasPrefix(block, "    age:\n") {
		t.Fatalf("no sops: block at the end:\n%s", enc)
	}
	values := regexpValue.ReplaceAllString(handWritten, "${1}X")
	values = strings.Replace(values, "X\n        -----BEGIN OPENSSH PRIVATE KEY-----\n        Zq9keyLine1\n        -----END OPENSSH PRIVATE KEY-----", "X", 1)
	if got := regexpValue.ReplaceAllString(body+"\n", "${1}X"); got != values {
		t.Errorf("more than the values changed:\n%s\nwant\n%s", got, values)
	}
	want, _, err := sops.Decrypt(mustEncrypt(t, opts), ids)
	if err != nil {
		t.Fatal(err)
	}
	got, meta, err := sops.Decrypt(enc, ids)
	if err != nil {
		t.Fatalf("sops.Decrypt: %v\n%s", err, enc)
	}
	if err := sameDocument(want, got); err != nil {
		t.Errorf("decrypts to other values: %v\n%s", err, got)
	}
	if bin, ok := fixturekey.SopsCLI(); ok {
		dir := t.TempDir()
		keys := filepath.Join(dir, "keys.txt")
		os.WriteFile(keys, []byte(id.String()+"\n"), 0o600)
		file := filepath.Join(dir, "config.yaml")
		os.WriteFile(file, enc, 0o600)
		cmd := exec.Command(bin, "--decrypt", file)
		cmd.Dir, cmd.Env = dir, []string{"HOME=" + dir, sops.KeyFileEnv + "=" + keys}
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("Zq9keyLine1")) {
			t.Errorf("sops --decrypt: %v\n%s", err, out)
		}
	}
	plain, meta2, err := DecryptSecrets(enc, ids)
	if err != nil {
		t.Fatal(err)
	}
	if string(plain) != handWritten {
		t.Errorf("decrypting in place does not give the text back:\n%s", plain)
	}
	if !bytes.Equal(meta.DataKey, meta2.DataKey) {
		t.Error("the data key differs")
	}
	// A file the whole-document encryption (sops's layout) wrote.
	plain, _, err = DecryptSecrets(mustEncrypt(t, opts), ids)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameDocument(want, plain); err != nil {
		t.Errorf("a sops-written file: %v\n%s", err, plain)
	}
}

func mustEncrypt(t *testing.T, opts sops.EncryptOptions) []byte {
	t.Helper()
	out, err := sops.EncryptSecrets([]byte(handWritten), opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
