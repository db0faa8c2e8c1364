package fixturekey

import (
	"os"
	"path/filepath"
	"runtime"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/sops"
)

// Path is the absolute path of the fixture's key file.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "keys", "fixture.TEST-ONLY.agekey")
}

// Decrypt decrypts a SOPS file encrypted for the fixture's key, whatever
// the environment says.
func Decrypt(data []byte) ([]byte, error) {
	f, err := os.Open(Path())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ids, err := age.ParseIdentities(f)
	if err != nil {
		return nil, err
	}
	plain, _, err := sops.Decrypt(data, ids)
	return plain, err
}

// Use makes the fixture's key the only one sops lookups find (call it from
// TestMain): SOPS_AGE_KEY_FILE names it, SOPS_AGE_KEY is cleared, and the
// user's default keys file is hidden behind an empty config directory. It
// also points TMPDIR into one directory of its own, so the lock files of
// the suite's temporary repositories go there too; cleanup removes it.
func Use() (cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "opencenter-test-")
	if err != nil {
		return nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	config, tmp := filepath.Join(dir, "config"), filepath.Join(dir, "tmp")
	for _, d := range []string{config, tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			cleanup()
			return nil, err
		}
	}
	for k, v := range map[string]string{sops.KeyFileEnv: Path(), "XDG_CONFIG_HOME": config, "TMPDIR": tmp} {
		if err := os.Setenv(k, v); err != nil {
			cleanup()
			return nil, err
		}
	}
	if err := os.Unsetenv(sops.KeyEnv); err != nil {
		cleanup()
		return nil, err
	}
	return cleanup, nil
}

// SopsCLI returns the real sops binary the Makefile builds (bin/sops, or
// $OPENCENTER_SOPS), and false when it is not built.
func SopsCLI() (string, bool) {
	bin := os.Getenv("OPENCENTER_SOPS")
	if bin == "" {
		_, file, _, _ := runtime.Caller(0)
		bin = filepath.Join(filepath.Dir(file), "..", "..", "bin", "sops")
	}
	_, err := os.Stat(bin)
	return bin, err == nil
}
