package plan

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/overlay"
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
			if len(f.Recipients) == 0 {
				continue
			}
			n++
			out, err := sopsDecrypt(t, bin, dir, "secret.yaml", f.Data)
			if err != nil {
				t.Errorf("%s/%s: sops decrypt: %v", p.Overlay, f.Path, err)
				continue
			}
			ours, _, err := sops.Decrypt(overlay.Body(f.Data), ids)
			if err != nil {
				t.Fatal(err)
			}
			// sops keeps the ownership header, a plaintext comment.
			if !bytes.Equal(overlay.Body(out), ours) {
				t.Errorf("%s/%s: sops decrypts to\n%s\nwe to\n%s", p.Overlay, f.Path, out, ours)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d encrypted files in the fixture", n)
	}
}

// sopsDecrypt writes data to name in dir and decrypts it with the sops CLI
// bin and the fixture's key, with sops's further arguments args; the error
// holds what sops said.
func sopsDecrypt(t *testing.T, bin, dir, name string, data []byte, args ...string) ([]byte, error) {
	t.Helper()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(append([]string{"decrypt"}, args...), file)...)
	cmd.Env = []string{"SOPS_AGE_KEY_FILE=" + fixturekey.Path(), "HOME=" + dir, "SOPS_DISABLE_VERSION_CHECK=1"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, stderr.String())
	}
	return out, nil
}

// TestDataKeyPerRecipientSet: secret files encrypted for different
// recipients never share a data key, since a recipient of one could then
// decrypt the other; files for the same recipients share one, in a plan and
// across the plans of one render (Options.DataKeys).
func TestDataKeyPerRecipientSet(t *testing.T) {
	other, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	f := loadConfig(t, "../../testdata/fixture/.k8s-dev-config.yaml")
	s := &f.Config.OpenCenter.GitOps.OverlayUnits.SOPS
	narrow, wide := s.Rules[0], s.Rules[0]
	narrow.PathRegex, narrow.AgeRecipients = `^services/loki/`, narrow.AgeRecipients[:1]
	wide.AgeRecipients = append(slices.Clone(wide.AgeRecipients), other.Recipient().String())
	s.Rules = []config.SOPSRule{narrow, wide}
	ids, err := sops.LoadIdentities()
	if err != nil {
		t.Fatal(err)
	}
	keys := &sops.DataKeys{}
	byRecipients := map[string]map[string]bool{} // recipients -> data keys
	for range 2 {
		p, err := Build(f, Options{AllowPlaintextSecrets: true, DataKeys: keys})
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range p.Files {
			if len(file.Recipients) == 0 {
				continue
			}
			_, meta, err := sops.Decrypt(overlay.Body(file.Data), ids)
			if err != nil {
				t.Fatalf("%s: %v", file.Path, err)
			}
			set := strings.Join(file.Recipients, ",")
			if byRecipients[set] == nil {
				byRecipients[set] = map[string]bool{}
			}
			byRecipients[set][string(meta.DataKey)] = true
		}
	}
	if len(byRecipients) != 2 {
		t.Fatalf("the files have %d sets of recipients, want 2 (a narrow and a wide rule)", len(byRecipients))
	}
	seen := map[string]bool{}
	for set, dataKeys := range byRecipients {
		if len(dataKeys) != 1 {
			t.Errorf("files for %s have %d data keys, want one shared", set, len(dataKeys))
		}
		for k := range dataKeys {
			if seen[k] {
				t.Errorf("files for %s share a data key with files for other recipients", set)
			}
			seen[k] = true
		}
	}
}
