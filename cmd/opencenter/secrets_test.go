package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// fixtureRepo copies the fixture's configs and its .sops.yaml into a new
// repository and makes it the working directory (sops finds .sops.yaml from there).
func fixtureRepo(t *testing.T) string {
	t.Helper()
	repo := copyFixtureConfigs(t)
	b, err := os.ReadFile("../../testdata/fixture/.sops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(repo, ".sops.yaml"), b, 0o644)
	t.Chdir(repo)
	return repo
}

func TestSecretsRoundTrip(t *testing.T) {
	fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	before, err := config.Load(cfg, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCLI("secrets", "encrypt", cfg); code != exitBadInput || !strings.Contains(stderr, "already encrypted") || stdout != "" {
		t.Errorf("encrypting twice: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := runCLI("secrets", "decrypt", cfg)
	data, _ := os.ReadFile(cfg)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "plaintext") || sops.IsEncrypted(data) {
		t.Fatalf("decrypt: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI("validate", cfg); code != 0 || !strings.Contains(stderr, "warning: "+cfg+": the values under secrets: are in plaintext") {
		t.Errorf("validate warns about plaintext secrets: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI("secrets", "encrypt", cfg); code != 0 {
		t.Fatalf("encrypt: exit %d\n%s", code, stderr)
	}
	after, err := config.Load(cfg, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before.Config, after.Config) || after.Encryption.DataKey == nil {
		t.Error("decrypt then encrypt changed the config")
	}
}

// treeHashes hashes every file of an overlay.
func treeHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		return nil
	})
	return out
}

// TestSecretChangeRewritesOnlyItsFiles: re-renders are byte-stable, a changed
// secret rewrites only the files holding it, --diff redacts it, and --check
// works without a key.
func TestSecretChangeRewritesOnlyItsFiles(t *testing.T) {
	repo := fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	if code, _, stderr := runCLI("render", "--repo", ".", cfg); code != 0 {
		t.Fatalf("render: exit %d\n%s", code, stderr)
	}
	overlay := filepath.Join(repo, "applications/overlays/k8s-dev")
	first := treeHashes(t, overlay)
	if code, stdout, _ := runCLI("render", "--repo", ".", cfg); code != 0 || !strings.Contains(stdout, "0 created, 0 updated, 0 deleted") {
		t.Fatalf("re-render: exit %d\n%s", code, stdout)
	}
	if again := treeHashes(t, overlay); !reflect.DeepEqual(first, again) {
		t.Fatal("a re-render changed bytes")
	}

	// Rotate loki's key with secrets edit (the editor is a sed script).
	editor := filepath.Join(t.TempDir(), "editor.sh")
	os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/secret_access_key: fake-loki-secret-key-dev/secret_access_key: rotated-loki-key-0042/' \"$1\"\n"), 0o755)
	t.Setenv("EDITOR", editor)
	if code, _, stderr := runCLI("secrets", "edit", cfg); code != 0 || !strings.Contains(stderr, "encrypted again") {
		t.Fatalf("secrets edit: exit %d\n%s", code, stderr)
	}
	code, stdout, _ := runCLI("render", "--repo", ".", "--diff", cfg)
	if code != exitDiffers || !strings.Contains(stdout, "services/loki/object-store-secret.yaml") ||
		!strings.Contains(stdout, "<redacted>") || strings.Contains(stdout, "rotated-loki-key-0042") || strings.Contains(stdout, "ENC[") {
		t.Fatalf("--diff: exit %d\n%s", code, stdout)
	}
	if code, stdout, _ := runCLI("render", "--repo", ".", cfg); code != 0 || !strings.Contains(stdout, "0 created, 1 updated, 0 deleted") {
		t.Fatalf("render after the change: exit %d\n%s", code, stdout)
	}
	changed := 0
	for p, h := range treeHashes(t, overlay) {
		if first[p] != h {
			changed++
			if !strings.HasSuffix(p, "services/loki/object-store-secret.yaml") {
				t.Errorf("%s changed", p)
			}
		}
	}
	if changed != 1 {
		t.Errorf("%d files changed, want 1", changed)
	}

	// Without a key: --check compares everything but the encrypted files,
	// checks those for presence and recipients, and says so.
	t.Setenv(sops.KeyFileEnv, filepath.Join(t.TempDir(), "none"))
	code, stdout, stderr := runCLI("render", "--repo", ".", "--check", cfg)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "services/loki/object-store-secret.yaml: encrypted, present and owned") {
		t.Fatalf("--check without a key: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// CI that holds the key makes an unchecked file an error.
	encrypted := 0
	for p := range first {
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "ENC[AES256_GCM,") {
			encrypted++
		}
	}
	code, _, stderr = runCLI("render", "--repo", ".", "--check", "--require-keys", cfg)
	if code != exitBadInput || !strings.Contains(stderr, fmt.Sprintf("--require-keys: %d encrypted files were not compared (no age key)", encrypted)) {
		t.Fatalf("--check --require-keys without a key: exit %d\n%s", code, stderr)
	}
	os.Remove(filepath.Join(overlay, "services/loki/object-store-secret.yaml"))
	if code, stdout, _ := runCLI("render", "--repo", ".", "--check", cfg); code != exitDiffers || !strings.Contains(stdout, "create applications/overlays/k8s-dev/services/loki/object-store-secret.yaml") {
		t.Fatalf("--check without a key, a secret file missing: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runCLI("render", "--repo", ".", cfg); code != exitBadInput || !strings.Contains(stderr, "no age key") {
		t.Fatalf("a render that would write needs the key: exit %d\n%s", code, stderr)
	}
}
