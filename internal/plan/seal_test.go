package plan

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

const devConfigFile = "../../testdata/fixture/.k8s-dev-config.yaml"

// buildIn plans f for repo and writes it.
func buildIn(t *testing.T, repo string, f *config.File, o Options) *Plan {
	t.Helper()
	o.Repo = repo
	p, err := Build(f, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := writePlan(repo, p, overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestForgedSecretIsReplaced is the attack of someone who can push to the
// repository but holds no age key: they replace a rendered Secret's values
// with their own, encrypted by the real sops CLI for the public recipients
// of the overlay's rule, and keep the header's seal (and the header is all
// that says who wrote a file). The seal binds the ciphertext, so the next
// render with the key reports the file as changed and writes it again.
func TestForgedSecretIsReplaced(t *testing.T) {
	bin, ok := fixturekey.SopsCLI()
	if !ok {
		t.Skip("the sops CLI is not built: make test builds bin/sops")
	}
	repo := t.TempDir()
	gitrepotest.Git(t, repo, "init", "-q")
	f := loadConfig(t, devConfigFile)
	p := buildIn(t, repo, f, Options{})
	gitrepotest.Git(t, repo, "add", "-A")
	gitrepotest.Git(t, repo, "commit", "-qm", "render")
	const target = "services/loki/object-store-secret.yaml"
	file := filepath.Join(repo, p.Overlay, target)
	real, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := bytes.Cut(real, []byte("\n"))
	if overlay.HeaderSeal(real) == "" {
		t.Fatal("the rendered secret has no seal")
	}

	// The attacker's plaintext: the same Secret, every value their own.
	plain, err := fixturekey.Decrypt(overlay.Body(real))
	if err != nil {
		t.Fatal(err)
	}
	forgedPlain := regexp.MustCompile(`(?m)^(    [A-Za-z_]+: ).*$`).ReplaceAll(plain, []byte("${1}attacker-chosen-value"))
	meta, err := sops.ReadMetadata(overlay.Body(real))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir() // no .sops.yaml: sops takes the command line's recipients
	in := filepath.Join(work, "secret.yaml")
	os.WriteFile(in, forgedPlain, 0o600)
	cmd := exec.Command(bin, "--encrypt", "--age", strings.Join(meta.Recipients, ","), "--encrypted-regex", meta.EncryptedRegex, in)
	cmd.Dir, cmd.Env = work, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work}
	forgedBody, err := cmd.Output()
	if err != nil {
		t.Fatalf("sops --encrypt: %v", err)
	}
	// The header keeps its seal.
	forged := append(append(header, '\n'), forgedBody...)
	if st, _ := overlay.Owner(forged); st != overlay.Owned || overlay.HeaderSeal(forged) != overlay.HeaderSeal(real) {
		t.Fatalf("the forgery does not pass as the renderer's own file (%v): the test does not attack", st)
	}
	// The attacker's pull request, merged.
	os.WriteFile(file, forged, 0o600)
	gitrepotest.Git(t, repo, "commit", "-qam", "a harmless change")

	again, err := Build(f, Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	changes, err := overlay.Diff(repo, &again.Tree, overlay.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	diffs := overlay.Differences(changes)
	if len(diffs) != 1 || diffs[0].Path != target || diffs[0].Op != overlay.OpUpdate {
		t.Fatalf("--check would report %v, want the update of %s alone", diffs, target)
	}
	if err := overlay.Apply(repo, &again.Tree, changes); err != nil {
		t.Fatal(err)
	}
	now, _ := os.ReadFile(file)
	got, err := fixturekey.Decrypt(overlay.Body(now))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, plain) {
		t.Errorf("after the render, %s decrypts to\n%s\nwant\n%s", target, got, plain)
	}
}

// TestSealsLinkNothing: two clusters whose configs share a data key (one
// copied to make the other) carry no seal in common, nor do two files of
// one cluster; and a config whose secrets are plaintext writes no seal at
// all, since nothing secret would key it.
func TestSealsLinkNothing(t *testing.T) {
	data, err := os.ReadFile(devConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	copied := bytes.ReplaceAll(data, []byte("k8s-dev"), []byte("k8s-dev2")) // outside secrets: (mac_only_encrypted)
	seen := map[string]string{}
	for _, f := range []*config.File{loadConfig(t, devConfigFile), parseConfig(t, ".k8s-dev2-config.yaml", copied)} {
		p, err := Build(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, file := range p.Files {
			if len(file.Recipients) == 0 {
				continue
			}
			n++
			s := overlay.HeaderSeal(file.Data)
			if s == "" {
				t.Fatalf("%s/%s: no seal", p.Overlay, file.Path)
			}
			if other, dup := seen[s]; dup {
				t.Errorf("%s/%s and %s carry the same seal", p.Overlay, file.Path, other)
			}
			seen[s] = p.Overlay + "/" + file.Path
		}
		if n < 10 {
			t.Fatalf("%s: only %d encrypted files", p.Overlay, n)
		}
	}

	plain, err := fixturekey.Decrypt(data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(parseConfig(t, ".k8s-dev-config.yaml", plain), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range p.Files {
		if len(file.Recipients) > 0 && overlay.HeaderSeal(file.Data) != "" {
			t.Errorf("%s: a seal, from a config whose secrets are plaintext", file.Path)
		}
	}
}

// TestPlaintextConfigKeepsProvenSecrets: without a seal, an encrypted file
// on disk is kept when the user's age key opens it and it holds the same
// plaintext; without such a key, it is written again and marked
// Unconfirmed, which --check does not count as a difference.
func TestPlaintextConfigKeepsProvenSecrets(t *testing.T) {
	data, err := os.ReadFile(devConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	text, err := fixturekey.Decrypt(data)
	if err != nil {
		t.Fatal(err)
	}
	f := parseConfig(t, ".k8s-dev-config.yaml", text)
	repo := t.TempDir()
	buildIn(t, repo, f, Options{})

	keys := &sops.Keyring{} // the fixture's key (TestMain)
	again, err := Build(f, Options{Repo: repo, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	changes, err := overlay.Diff(repo, &again.Tree, overlay.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("with the key, a re-render changes %v", changes)
	}

	blind, err := Build(f, Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	changes, err = overlay.Diff(repo, &blind.Tree, overlay.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := overlay.Differences(changes); len(d) != 0 {
		t.Errorf("without a key, --check reports %v", d)
	}
	var unconfirmed []string
	for _, c := range changes {
		if !c.Unconfirmed || c.Op != overlay.OpUpdate {
			t.Errorf("without a key: %s %s", c.Op, c.Path)
		}
		unconfirmed = append(unconfirmed, c.Path)
	}
	var encrypted []string
	for _, file := range blind.Files {
		if len(file.Recipients) > 0 {
			encrypted = append(encrypted, file.Path)
		}
	}
	if !slices.Equal(unconfirmed, encrypted) {
		t.Errorf("unconfirmed %v, want every encrypted file %v", unconfirmed, encrypted)
	}
}

// parseConfig loads config text named name.
func parseConfig(t *testing.T, name string, data []byte) *config.File {
	t.Helper()
	f, err := config.Parse(name, data, config.LoadOptions{})
	if err != nil {
		t.Fatal(fmt.Errorf("loading %s: %w", name, err))
	}
	return f
}
