package sops

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"filippo.io/age"
)

// sopsEnv names the sops binary the interop tests run; the Makefile sets it.
const sopsEnv = "OPENCENTER_SOPS"

// sopsCLI is the real sops binary, run with a clean environment: HOME and the
// config directory are empty temporary directories, so the machine's keys and
// .sops.yaml files do not matter.
type sopsCLI struct {
	t    *testing.T
	bin  string
	home string
}

// realSops returns the sops CLI from $OPENCENTER_SOPS, or bin/sops at the
// repository root, and skips the test when neither is there.
func realSops(t *testing.T) *sopsCLI {
	t.Helper()
	cli := maybeSops(t)
	if cli == nil {
		t.Skipf("the sops CLI is not built: run `make bin/sops` or set %s (make test does both)", sopsEnv)
	}
	return cli
}

// maybeSops is realSops for tests that also check things without sops: it
// returns nil instead of skipping.
func maybeSops(t *testing.T) *sopsCLI {
	t.Helper()
	bin := os.Getenv(sopsEnv)
	if bin == "" {
		root, err := filepath.Abs(filepath.Join("..", "..", "bin", "sops"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(root); err != nil {
			return nil
		}
		bin = root
	} else if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s: %v", sopsEnv, bin, err)
	}
	return &sopsCLI{t: t, bin: bin, home: t.TempDir()}
}

// run runs sops in dir with env added to the clean environment and returns
// stdout; a failure is returned, not fatal, for the tests that expect one.
func (s *sopsCLI) run(dir string, env []string, args ...string) ([]byte, error) {
	s.t.Helper()
	cmd := exec.Command(s.bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{
		"HOME=" + s.home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"PATH=/usr/bin:/bin",
		"SOPS_DISABLE_VERSION_CHECK=1",
	}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &cliError{err: err, stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

type cliError struct {
	err    error
	stderr string
}

func (e *cliError) Error() string { return e.err.Error() + ": " + e.stderr }

// mustRun is run that fails the test on error.
func (s *sopsCLI) mustRun(dir string, env []string, args ...string) []byte {
	s.t.Helper()
	out, err := s.run(dir, env, args...)
	if err != nil {
		s.t.Fatalf("sops %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// decrypt runs `sops --decrypt` on data with the key file of id.
func (s *sopsCLI) decrypt(data []byte, keys string) ([]byte, error) {
	s.t.Helper()
	dir := s.t.TempDir()
	path := filepath.Join(dir, "file.yaml")
	writeFile(s.t, path, data)
	return s.run(dir, []string{KeyFileEnv + "=" + keys}, "--decrypt", path)
}

// testKey is an age key pair with its keys file, as a user would have it.
type testKey struct {
	id        *age.X25519Identity
	recipient string
	file      string
}

func newKey(t *testing.T) testKey {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "keys.txt")
	writeFile(t, file, []byte("# created: by the test\n# public key: "+id.Recipient().String()+"\n"+id.String()+"\n"))
	return testKey{id: id, recipient: id.Recipient().String(), file: file}
}

// newFuzzKey is newKey for a fuzz target's setup, which has no keys file.
func newFuzzKey() (testKey, error) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return testKey{}, err
	}
	return testKey{id: id, recipient: id.Recipient().String()}, nil
}

func (k testKey) ids() []age.Identity { return []age.Identity{k.id} }

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

var (
	encValue   = regexp.MustCompile(`ENC\[AES256_GCM,data:[A-Za-z0-9+/=]*,iv:[A-Za-z0-9+/=]+,tag:[A-Za-z0-9+/=]+,type:(\w+)\]`)
	ageArmor   = regexp.MustCompile(`(?s)-----BEGIN AGE ENCRYPTED FILE-----\n.*?-----END AGE ENCRYPTED FILE-----`)
	lastModRow = regexp.MustCompile(`lastmodified: "[^"]*"`)
)

// shape blanks what differs between two encryptions of the same document
// (ciphertexts, IVs, age stanzas, time), keeping the value types and the
// whole layout, so our output and sops's can be compared byte for byte.
func shape(b []byte) string {
	s := encValue.ReplaceAllString(string(b), "ENC[$1]")
	s = ageArmor.ReplaceAllString(s, "AGE FILE")
	return lastModRow.ReplaceAllString(s, `lastmodified: "T"`)
}
