package sops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clearKeyEnv gives the test a machine with no age keys anywhere.
func clearKeyEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, v := range []string{KeyEnv, KeyFileEnv, "SOPS_AGE_KEY_CMD", "SOPS_AGE_SSH_PRIVATE_KEY_FILE", "SOPS_AGE_SSH_PRIVATE_KEY_CMD"} {
		t.Setenv(v, "")
		// t.Setenv cannot unset; LookupEnv must see the variable absent.
		unsetenv(t, v)
	}
	return home
}

func TestLoadIdentities(t *testing.T) {
	a, b, c, d := newKey(t), newKey(t), newKey(t), newKey(t)

	t.Run("nothing", func(t *testing.T) {
		home := clearKeyEnv(t)
		_, err := LoadIdentities()
		want := filepath.Join(home, ".config", "sops", "age", "keys.txt")
		if err == nil || !strings.Contains(err.Error(), KeyEnv) || !strings.Contains(err.Error(), KeyFileEnv) || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want it to name $%s, $%s and %s", err, KeyEnv, KeyFileEnv, want)
		}
	})
	t.Run("all sources together", func(t *testing.T) {
		home := clearKeyEnv(t)
		t.Setenv(KeyEnv, a.id.String()+" "+b.id.String()+"\n# comment\n")
		t.Setenv(KeyFileEnv, c.file)
		writeFile(t, filepath.Join(home, ".config", DefaultKeyFile), []byte(d.id.String()+"\n"))
		ids, err := LoadIdentities()
		if err != nil || len(ids) != 4 {
			t.Fatalf("LoadIdentities = %d identities, %v; want 4", len(ids), err)
		}
	})
	t.Run("CRLF lines and no final line break", func(t *testing.T) {
		clearKeyEnv(t)
		file := filepath.Join(t.TempDir(), "keys.txt")
		writeFile(t, file, []byte("# created: on Windows\r\n"+a.id.String()+"\r\n\r\n"+b.id.String()))
		t.Setenv(KeyFileEnv, file)
		if ids, err := LoadIdentities(); err != nil || len(ids) != 2 {
			t.Errorf("LoadIdentities = %d identities, %v; want 2", len(ids), err)
		}
	})
	t.Run("default file follows XDG_CONFIG_HOME", func(t *testing.T) {
		clearKeyEnv(t)
		xdg := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", xdg)
		writeFile(t, filepath.Join(xdg, DefaultKeyFile), []byte(a.id.String()+"\n"))
		if ids, err := LoadIdentities(); err != nil || len(ids) != 1 {
			t.Errorf("LoadIdentities = %d, %v", len(ids), err)
		}
	})
	t.Run("bad key file is named, its content is not", func(t *testing.T) {
		clearKeyEnv(t)
		bad := filepath.Join(t.TempDir(), "keys.txt")
		secret := "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ"
		writeFile(t, bad, []byte("# ok\n"+secret+"\n"))
		t.Setenv(KeyFileEnv, bad)
		_, err := LoadIdentities()
		if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "line 2") || strings.Contains(err.Error(), "QQQQ") {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("missing key file is named, though another key is found", func(t *testing.T) {
		home := clearKeyEnv(t)
		writeFile(t, filepath.Join(home, ".config", DefaultKeyFile), []byte(a.id.String()+"\n"))
		missing := filepath.Join(t.TempDir(), "nope", "keys.txt")
		t.Setenv(KeyFileEnv, missing)
		_, err := LoadIdentities()
		if err == nil || !strings.Contains(err.Error(), "$"+KeyFileEnv+" names "+missing+", which cannot be read: no such file or directory") {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("passphrase-protected file", func(t *testing.T) {
		clearKeyEnv(t)
		enc := filepath.Join(t.TempDir(), "keys.age")
		writeFile(t, enc, []byte("-----BEGIN AGE ENCRYPTED FILE-----\nYWdl\n-----END AGE ENCRYPTED FILE-----\n"))
		t.Setenv(KeyFileEnv, enc)
		if _, err := LoadIdentities(); err == nil || !strings.Contains(err.Error(), "passphrase") {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("unsupported source is named", func(t *testing.T) {
		clearKeyEnv(t)
		t.Setenv("SOPS_AGE_KEY_CMD", "cat keys")
		if _, err := LoadIdentities(); err == nil || !strings.Contains(err.Error(), "SOPS_AGE_KEY_CMD") {
			t.Errorf("error = %v", err)
		}
	})
}

// TestLoadIdentitiesMatchesSops: with a key only in SOPS_AGE_KEY, or only in
// the default keys file, sops decrypts and so does Decrypt with
// LoadIdentities in the same environment.
func TestLoadIdentitiesMatchesSops(t *testing.T) {
	cli := realSops(t)
	key := newKey(t)
	file := encryptConfig(t, key, Rules{})
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "enc.yaml"), file)

	t.Run(KeyEnv, func(t *testing.T) {
		clearKeyEnv(t)
		t.Setenv(KeyEnv, key.id.String())
		ids, err := LoadIdentities()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Decrypt(file, ids); err != nil {
			t.Error(err)
		}
		cli.mustRun(dir, []string{KeyEnv + "=" + key.id.String()}, "--decrypt", "enc.yaml")
	})
	t.Run("default keys file", func(t *testing.T) {
		home := clearKeyEnv(t)
		writeFile(t, filepath.Join(home, ".config", DefaultKeyFile), []byte(key.id.String()+"\n"))
		ids, err := LoadIdentities()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Decrypt(file, ids); err != nil {
			t.Error(err)
		}
		// The CLI helper points HOME and XDG_CONFIG_HOME at its own empty
		// home; give it this one.
		cli.home = home
		cli.mustRun(dir, nil, "--decrypt", "enc.yaml")
	})
	t.Run("no key", func(t *testing.T) {
		clearKeyEnv(t)
		if _, err := LoadIdentities(); err == nil {
			t.Error("LoadIdentities found a key in an empty environment")
		}
		cli.home = t.TempDir()
		if _, err := cli.run(dir, nil, "--decrypt", "enc.yaml"); err == nil {
			t.Error("sops decrypted without a key")
		}
	})
}

// unsetenv removes a variable that t.Setenv has saved, so it is restored
// after the test.
func unsetenv(t *testing.T, name string) {
	t.Helper()
	if err := os.Unsetenv(name); err != nil {
		t.Fatal(err)
	}
}
