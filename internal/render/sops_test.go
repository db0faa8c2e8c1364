package render

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// TestEncryptedFilesDecryptWithSops: the real sops CLI decrypts every
// encrypted file the fixture renders, verifying the MAC, to exactly what
// the renderer encrypted.
func TestEncryptedFilesDecryptWithSops(t *testing.T) {
	bin, ok := fixturekey.SopsCLI()
	if !ok {
		t.Skip("the sops CLI is not built: make test builds bin/sops")
	}
	ids, err := sops.LoadIdentities()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n := 0
	for _, c := range fixtureConfigs(t) {
		p := plan(t, c)
		for _, f := range p.Files {
			if f.Fingerprint == "" {
				continue
			}
			n++
			file := filepath.Join(dir, "secret.yaml")
			if err := os.WriteFile(file, f.Data, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "decrypt", file)
			cmd.Env = []string{"SOPS_AGE_KEY_FILE=" + fixturekey.Path(), "HOME=" + dir, "SOPS_DISABLE_VERSION_CHECK=1"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("%s/%s: sops decrypt: %v\n%s", p.Overlay, f.Path, err, stderr.String())
				continue
			}
			ours, _, err := sops.Decrypt(body(f.Data), ids)
			if err != nil {
				t.Fatal(err)
			}
			// sops keeps the ownership header, a plaintext comment.
			if !bytes.Equal(body(out), ours) {
				t.Errorf("%s/%s: sops decrypts to\n%s\nwe to\n%s", p.Overlay, f.Path, out, ours)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d encrypted files in the fixture", n)
	}
}
