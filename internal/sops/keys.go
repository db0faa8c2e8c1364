package sops

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"filippo.io/age"
)

// Where sops looks for age private keys.
const (
	// KeyEnv holds age private keys, separated by spaces or newlines.
	KeyEnv = "SOPS_AGE_KEY"
	// KeyFileEnv names a keys file, one key a line, '#' comments allowed.
	KeyFileEnv = "SOPS_AGE_KEY_FILE"
	// DefaultKeyFile is the keys file under the user config directory
	// ($XDG_CONFIG_HOME or ~/.config on Linux, also $XDG_CONFIG_HOME on macOS
	// when set, ~/Library/Application Support otherwise).
	DefaultKeyFile = "sops/age/keys.txt"
)

// LoadIdentities finds age private keys the way sops does: from SOPS_AGE_KEY,
// from the file SOPS_AGE_KEY_FILE names, and from the default keys file, all
// of them together. It fails only when it finds none, naming every place it
// looked and what was wrong with each.
//
// sops also reads SOPS_AGE_KEY_CMD, SSH keys (SOPS_AGE_SSH_PRIVATE_KEY_FILE,
// ~/.ssh/id_ed25519, ~/.ssh/id_rsa), passphrase-protected key files and
// plugin identities; this package does not, and says so when it finds only
// those.
func LoadIdentities() ([]age.Identity, error) {
	var (
		ids      []age.Identity
		looked   []string
		problems []string
	)
	add := func(where string, r io.Reader, manyPerLine bool) {
		found, err := parseIdentities(r, manyPerLine)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", where, err))
		case len(found) == 0:
			problems = append(problems, where+": no keys in it")
		}
		ids = append(ids, found...)
	}

	if v, ok := os.LookupEnv(KeyEnv); ok {
		add("$"+KeyEnv, strings.NewReader(v), true)
	} else {
		looked = append(looked, "$"+KeyEnv+" (unset)")
	}
	if path, ok := os.LookupEnv(KeyFileEnv); ok {
		f, err := os.Open(path)
		if err != nil {
			// Named on purpose: no other key may stand in for it unseen.
			return nil, fmt.Errorf("sops: $%s names %s, which cannot be read: %w", KeyFileEnv, path, pathless(err))
		}
		add(path+" ($"+KeyFileEnv+")", f, false)
		f.Close()
	} else {
		looked = append(looked, "$"+KeyFileEnv+" (unset)")
	}
	if dir, err := userConfigDir(); err != nil {
		problems = append(problems, fmt.Sprintf("default keys file: %v", err))
	} else {
		path := filepath.Join(dir, filepath.FromSlash(DefaultKeyFile))
		f, err := os.Open(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			looked = append(looked, path+" (absent)")
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s cannot be read: %v", path, pathless(err)))
		default:
			add(path, f, false)
			f.Close()
		}
	}
	if len(ids) > 0 {
		return ids, nil
	}
	for _, unsupported := range []string{"SOPS_AGE_KEY_CMD", "SOPS_AGE_SSH_PRIVATE_KEY_FILE", "SOPS_AGE_SSH_PRIVATE_KEY_CMD"} {
		if _, ok := os.LookupEnv(unsupported); ok {
			problems = append(problems, "$"+unsupported+" is set but not supported here; put the age key in $"+KeyFileEnv+" instead")
		}
	}
	msg := "sops: no age private key found; looked at " + strings.Join(looked, ", ")
	if len(problems) > 0 {
		msg += "; " + strings.Join(problems, "; ")
	}
	return nil, errors.New(msg)
}

// DefaultKeyPath is where sops looks for the default keys file.
func DefaultKeyPath() (string, error) {
	dir, err := userConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(DefaultKeyFile)), nil
}

// pathless is err without the path an *fs.PathError repeats.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// userConfigDir is os.UserConfigDir, except that on macOS sops honours
// XDG_CONFIG_HOME too.
func userConfigDir() (string, error) {
	if runtime.GOOS == "darwin" {
		if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
			return dir, nil
		}
	}
	return os.UserConfigDir()
}

// parseIdentities reads age private keys, one a line (or several a line,
// space-separated, for SOPS_AGE_KEY), skipping blank lines and '#' comments.
// Errors name the line, never its content.
func parseIdentities(r io.Reader, manyPerLine bool) ([]age.Identity, error) {
	// A keys file is a few lines: read whole, without bufio's two 4 KiB
	// buffers.
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	text := string(data)
	if strings.HasPrefix(text, "age-encryption") || strings.HasPrefix(text, "-----BEGIN AGE") {
		return nil, errors.New("passphrase-protected key files are not supported")
	}
	var ids []age.Identity
	n := 0
	for line := range strings.Lines(text) {
		n++
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words := []string{line}
		if manyPerLine {
			words = strings.Fields(line)
		}
		for _, w := range words {
			id, err := parseIdentity(w)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// errMalformedKey replaces age's parse errors, which may quote key material.
var errMalformedKey = errors.New("malformed age private key")

// parseIdentity parses an age private key, once per process: deriving an
// X25519 key's public half costs a scalar multiplication, and a fleet
// render reads the same key for every config.
func parseIdentity(s string) (age.Identity, error) { return identities.get(s, parseIdentityNew) }

// identities holds the parsed keys by their text; an age.Identity is
// read-only.
var identities = memo[string, age.Identity]{max: 64}

func parseIdentityNew(s string) (age.Identity, error) {
	var (
		id  age.Identity
		err error
	)
	switch {
	case strings.HasPrefix(s, "AGE-SECRET-KEY-PQ-1"):
		id, err = age.ParseHybridIdentity(s)
	case strings.HasPrefix(s, "AGE-SECRET-KEY-1"):
		id, err = age.ParseX25519Identity(s)
	case strings.HasPrefix(s, "AGE-PLUGIN-"):
		return nil, errors.New("age plugin identities are not supported")
	default:
		return nil, errors.New("not an age private key (AGE-SECRET-KEY-1...)")
	}
	if err != nil {
		return nil, errMalformedKey
	}
	return id, nil
}

// Keyring loads the age identities once (LoadIdentities), for a run that
// opens many files with the same environment: a fleet render reads the
// keys file once, not once per config. It is safe for concurrent use.
type Keyring struct {
	once sync.Once
	ids  []age.Identity
	err  error
}

// Identities returns what LoadIdentities returned when first called.
func (k *Keyring) Identities() ([]age.Identity, error) {
	k.once.Do(func() { k.ids, k.err = LoadIdentities() })
	return k.ids, k.err
}
