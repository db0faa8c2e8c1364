package main

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"
	"filippo.io/age/armor"

	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// addRecipient is what someone with write access but no key can do to an
// encrypted config: add an age: entry for their own key to its sops:
// block. They cannot wrap the real data key, so the entry wraps 32 random
// bytes; the block is not authenticated, so the file still decrypts.
func addRecipient(t *testing.T, cfg string) *age.X25519Identity {
	t.Helper()
	attacker, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	aw := armor.NewWriter(&b)
	w, err := age.Encrypt(aw, attacker.Recipient())
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(rand.Text() + "012345")) // 32 bytes, not the data key
	w.Close()
	aw.Close()
	entry := "        - recipient: " + attacker.Recipient().String() + "\n          enc: |\n"
	for line := range strings.Lines(b.String()) {
		entry += "            " + line
	}
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(string(data), "\nsops:\n    age:\n", "\nsops:\n    age:\n"+entry, 1)
	if out == string(data) {
		t.Fatal("no sops: age: list to add to")
	}
	os.WriteFile(cfg, []byte(out), 0o644)
	return attacker
}

// TestAddedRecipientIsRefused: a recipient added to a config's sops:
// block is reported by validate and refused by secrets edit, which would
// otherwise wrap the data key for it; secrets updatekeys encrypts for the
// .sops.yaml rule alone, with a new data key the attacker cannot open.
func TestAddedRecipientIsRefused(t *testing.T) {
	fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	before, _ := os.ReadFile(cfg)
	_, oldMeta, err := sops.Decrypt(before, mustIdentities(t))
	if err != nil {
		t.Fatal(err)
	}
	attacker := addRecipient(t, cfg)
	tampered, _ := os.ReadFile(cfg)

	code, stdout, stderr := runCLI("validate", cfg)
	if code != exitBadInput || stdout != "" || !strings.Contains(stderr, "sops.age: the secrets are encrypted for "+attacker.Recipient().String()+", which ") ||
		!strings.Contains(stderr, "run 'opencenter secrets updatekeys "+cfg+"'") {
		t.Fatalf("validate: exit %d\n%s%s", code, stdout, stderr)
	}

	t.Setenv("EDITOR", writeEditor(t, "sed -i 's/retention_count: 14/retention_count: 15/' \"$1\""))
	code, _, stderr = runCLI("secrets", "edit", cfg)
	if code != exitRefused || !strings.Contains(stderr, "refusing to edit") || !strings.Contains(stderr, attacker.Recipient().String()+" could read what you save") {
		t.Fatalf("secrets edit: exit %d\n%s", code, stderr)
	}
	if now, _ := os.ReadFile(cfg); !bytes.Equal(now, tampered) {
		t.Fatal("a refused edit changed the file")
	}

	if code, _, stderr := runCLI("secrets", "updatekeys", cfg); code != 0 || !strings.Contains(stderr, "new data key") || !strings.Contains(stderr, "no longer for "+attacker.Recipient().String()) {
		t.Fatalf("secrets updatekeys: exit %d\n%s", code, stderr)
	}
	after, _ := os.ReadFile(cfg)
	if _, _, err := sops.Decrypt(after, []age.Identity{attacker}); !errors.Is(err, sops.ErrNoMatchingIdentity) {
		t.Errorf("the attacker's key still opens the config: %v", err)
	}
	_, meta, err := sops.Decrypt(after, mustIdentities(t))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(meta.DataKey, oldMeta.DataKey) {
		t.Error("updatekeys kept the data key")
	}
	if strings.Join(meta.Recipients, ",") != "age18tjucsprhh3rqntyzsfmt28p3uctwtru93xcklk3zwsjpd5mlszszlx9j4" {
		t.Errorf("recipients after updatekeys: %v", meta.Recipients)
	}
	if code, stdout, stderr := runCLI("validate", cfg); code != 0 || !strings.Contains(stdout, "valid (secrets decrypted and checked)") {
		t.Errorf("validate after updatekeys: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI("secrets", "updatekeys", cfg); code != 0 || !strings.Contains(stderr, "already encrypted for the recipients") {
		t.Errorf("updatekeys again: exit %d\n%s", code, stderr)
	}
}

func mustIdentities(t *testing.T) []age.Identity {
	t.Helper()
	ids, err := sops.LoadIdentities()
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// writeEditor writes an $EDITOR script running script with the file as $1.
func writeEditor(t *testing.T, script string) string {
	t.Helper()
	editor := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return editor
}

// TestRejectedEditIsKeptEncrypted: an edit that is not a valid config
// leaves the config as it was and is kept beside it, encrypted for the
// policy's recipients, never in plaintext; the next edit resumes it.
func TestRejectedEditIsKeptEncrypted(t *testing.T) {
	fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	before, _ := os.ReadFile(cfg)
	t.Setenv("EDITOR", writeEditor(t, "sed -i 's/retention_count: 14/retention_count: -3/' \"$1\""))
	code, _, stderr := runCLI("secrets", "edit", cfg)
	if code != exitBadInput || !strings.Contains(stderr, "the edit is kept, encrypted for") {
		t.Fatalf("secrets edit: exit %d\n%s", code, stderr)
	}
	if now, _ := os.ReadFile(cfg); !bytes.Equal(now, before) {
		t.Fatal("a rejected edit changed the config")
	}
	kept, err := os.ReadFile(cfg + rejectedSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(kept, []byte("retention_count")) || !bytes.HasPrefix(kept, []byte(armor.Header)) {
		t.Fatalf("the rejected edit is not kept encrypted:\n%s", kept)
	}
	// Resumed: the editor sees -3 and mends it.
	t.Setenv("EDITOR", writeEditor(t, "grep -q 'retention_count: -3' \"$1\" && sed -i 's/retention_count: -3/retention_count: 7/' \"$1\""))
	if code, _, stderr := runCLI("secrets", "edit", cfg); code != 0 || !strings.Contains(stderr, "resuming the edit kept in") {
		t.Fatalf("resumed edit: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(cfg + rejectedSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Error("the kept edit stays after it was saved")
	}
	if now, _ := os.ReadFile(cfg); !bytes.Contains(now, []byte("retention_count: 7")) {
		t.Error("the resumed edit was not saved")
	}
}

// TestEditCleansUpOnSignals: whichever of SIGINT, SIGTERM and SIGHUP ends
// secrets edit while its editor runs, the editor is stopped, the private
// directory holding the decrypted copy is removed, and the config is
// unchanged. The CLI runs as a real process: the test binary itself.
func TestEditCleansUpOnSignals(t *testing.T) {
	fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	before, _ := os.ReadFile(cfg)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			runtime, pids := t.TempDir(), t.TempDir()
			pidFile := filepath.Join(pids, "editor.pid")
			// exec: the script becomes sleep, which a signal ends.
			editor := writeEditor(t, "echo $$ > "+pidFile+"\nexec sleep 600")
			cmd := exec.Command(os.Args[0], "secrets", "edit", cfg)
			cmd.Env = append(os.Environ(), cliEnv+"=1", "EDITOR="+editor, "XDG_RUNTIME_DIR="+runtime, "SOPS_AGE_KEY_FILE="+fixturekey.Path())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			editorPID := waitForPID(t, pidFile)
			copies, _ := filepath.Glob(filepath.Join(runtime, "opencenter-edit-*", cfg))
			if len(copies) != 1 {
				t.Fatalf("the decrypted copy is not in $XDG_RUNTIME_DIR: %v", copies)
			}
			if info, err := os.Stat(filepath.Dir(copies[0])); err != nil || info.Mode().Perm() != 0o700 {
				t.Fatalf("the copy's directory: %v, %v", info.Mode(), err)
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) || !strings.Contains(stderr.String(), "interrupted by") {
				t.Fatalf("exit: %v\n%s", err, stderr.String())
			}
			if left, _ := filepath.Glob(filepath.Join(runtime, "*")); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
			if syscall.Kill(editorPID, 0) == nil {
				syscall.Kill(editorPID, syscall.SIGKILL)
				t.Error("the editor is still running")
			}
			if now, _ := os.ReadFile(cfg); !bytes.Equal(now, before) {
				t.Error("the config changed")
			}
		})
	}
}

// waitForPID reads a PID the editor script writes, waiting for it.
func waitForPID(t *testing.T, file string) int {
	t.Helper()
	for range 500 {
		data, err := os.ReadFile(file)
		if err == nil && bytes.HasSuffix(data, []byte("\n")) {
			var pid int
			for _, c := range bytes.TrimSpace(data) {
				pid = pid*10 + int(c-'0')
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the editor did not start")
	return 0
}

// TestSecretsSet: one secret set from standard input, in an encrypted
// config and in one whose secrets are plaintext, leaves the file encrypted,
// every line outside secrets: as it was, and the value only in ENC[...]; a
// key file keeps its lines; an unknown path or a value the config refuses
// changes nothing and prints no value.
func TestSecretsSet(t *testing.T) {
	repo := fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	before, _ := os.ReadFile(cfg)
	code, _, stderr := runCLIWith("rotated-Zq9\n", "secrets", "set", "services.loki.secret_access_key", "--config", cfg)
	after, _ := os.ReadFile(cfg)
	if code != 0 || bytes.Contains(after, []byte("-Zq9")) || !sops.IsEncrypted(after) {
		t.Fatalf("secrets set: exit %d\n%s", code, stderr)
	}
	plain, _, err := sops.Decrypt(after, mustIdentities(t))
	if err != nil || !bytes.Contains(plain, []byte("secret_access_key: rotated-Zq9\n")) {
		t.Fatalf("the value decrypts as: %v\n%s", err, plain)
	}
	if outside(before) != outside(after) {
		t.Errorf("lines outside secrets: changed:\n%s", after)
	}

	// A config whose secrets are plaintext: encrypted by the set.
	os.WriteFile(cfg, []byte(strings.Split(string(mustDecrypt(t, before)), "\nsecrets:\n")[0]+"\nsecrets: {}\n"), 0o644)
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nkey-Zq9line\n-----END OPENSSH PRIVATE KEY-----\n"
	if code, _, stderr := runCLIWith(key, "secrets", "set", "secrets.overlay_units.customer_managed.identity", "--repo", repo, "--config", cfg); code != 0 || !strings.Contains(stderr, "for the first time") {
		t.Fatalf("secrets set on a plaintext config: exit %d\n%s", code, stderr)
	}
	after, _ = os.ReadFile(cfg)
	plain, _, err = sops.Decrypt(after, mustIdentities(t))
	if err != nil || bytes.Contains(after, []byte("key-Zq9")) || !bytes.Contains(plain, []byte("identity: |\n")) || !bytes.Contains(plain, []byte("key-Zq9line\n")) {
		t.Fatalf("a key file's lines: %v\n%s", err, plain)
	}

	for _, c := range []struct{ path, value, want string }{
		{"services.loki.secret_acess_key", "x", "is not a secret of the config (did you mean \"secrets.services.loki.secret_access_key\"?)"},
		{"services.harbor.secret_key", "Zq9-not-sixteen-bytes", "would not be a valid config"},
	} {
		code, stdout, stderr := runCLIWith(c.value, "secrets", "set", c.path, "--config", cfg)
		if now, _ := os.ReadFile(cfg); code != exitBadInput || !bytes.Equal(now, after) || !strings.Contains(stderr, c.want) || strings.Contains(stdout+stderr, "Zq9") {
			t.Errorf("secrets set %s: exit %d\n%s%s", c.path, code, stdout, stderr)
		}
	}
}

// The plaintext markers of these tests hold a "-", which no ciphertext
// alphabet (base64, bech32) has: a short marker alone turns up in random
// ciphertext now and then.

// outside is a config's text without its secrets: section and sops: block.
func outside(data []byte) string {
	text, _, _ := strings.Cut(string(data), "\nsecrets:")
	return text
}

func mustDecrypt(t *testing.T, data []byte) []byte {
	t.Helper()
	plain, err := fixturekey.Decrypt(data)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// TestSecretsEncryptKeepsTheFile: secrets encrypt, decrypt and edit change
// the values under secrets: and the sops: block, and no other byte of a
// config written by init (indented by two, with comments).
func TestSecretsEncryptKeepsTheFile(t *testing.T) {
	fixtureRepo(t)
	const cfg = ".k8s-lab-config.yaml" // the fixture's .sops.yaml has a rule for it
	mustCLI(t, "init", "--cluster", "k8s-lab", "--repository-url", "https://github.com/acme/gitops.git")
	data, _ := os.ReadFile(cfg)
	text := strings.Replace(string(data), "\nsecrets:\n", "\nsecrets:\n  services:\n    loki:\n      access_key_id: key-Zq9id   # the bucket's\n", 1)
	os.WriteFile(cfg, []byte(text), 0o644)
	mustCLI(t, "secrets", "encrypt", cfg)
	enc, _ := os.ReadFile(cfg)
	if outside(enc) != outside([]byte(text)) || bytes.Contains(enc, []byte("key-Zq9")) || !bytes.Contains(enc, []byte("      access_key_id: ENC[")) {
		t.Fatalf("secrets encrypt changed more than the values:\n%s", enc)
	}
	t.Setenv("EDITOR", writeEditor(t, "sed -i 's/Zq9id/Zq9id2/' \"$1\""))
	mustCLI(t, "secrets", "edit", cfg)
	edited, _ := os.ReadFile(cfg)
	if outside(edited) != outside([]byte(text)) {
		t.Fatalf("secrets edit changed more than the values:\n%s", edited)
	}
	mustCLI(t, "secrets", "decrypt", cfg)
	if plain, _ := os.ReadFile(cfg); string(plain) != strings.Replace(text, "Zq9id ", "Zq9id2 ", 1) {
		t.Fatalf("secrets decrypt does not give the file back:\n%s", plain)
	}
}

// TestEncryptedConfigProblemsAtTheirLines: in an encrypted config, a
// problem of a plaintext value and one of a secret are both reported, each
// at its own line, not at the sops: block.
func TestEncryptedConfigProblemsAtTheirLines(t *testing.T) {
	fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	mustCLI(t, "secrets", "decrypt", cfg)
	data, _ := os.ReadFile(cfg)
	text := strings.Replace(string(data), "retention_count: 14", "retention_count: -1", 1)
	text = regexp.MustCompile(`(?m)^(            secret_key: ).*$`).ReplaceAllString(text, "${1}tooshort")
	os.WriteFile(cfg, []byte(text), 0o644)
	mustCLI(t, "secrets", "encrypt", cfg)
	enc, _ := os.ReadFile(cfg)
	line := func(marker string) int {
		for i, l := range strings.Split(string(enc), "\n") {
			if strings.Contains(l, marker) {
				return i + 1
			}
		}
		t.Fatalf("no %q", marker)
		return 0
	}
	code, _, stderr := runCLI("validate", cfg)
	for _, want := range []string{
		fmt.Sprintf("%s:%d:13: opencenter.services.etcd-backup.retention_count: -1", cfg, line("retention_count:")),
		fmt.Sprintf("%s:%d:13: secrets.services.harbor.secret_key: is 8 bytes long", cfg, line("            secret_key:")),
	} {
		if code != exitBadInput || !strings.Contains(stderr, want) {
			t.Errorf("validate: exit %d, want %q in\n%s", code, want, stderr)
		}
	}
}
