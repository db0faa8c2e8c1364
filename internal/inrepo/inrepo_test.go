package inrepo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEscapes: links out of the repository, to a file or a directory, by
// an absolute or a relative target, and ".." are refused with an
// *EscapeError; links that stay inside are followed; a missing file is
// fs.ErrNotExist. No refusal holds the outside file's content.
func TestEscapes(t *testing.T) {
	outside, repo := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "kubeconfig")
	os.WriteFile(secret, []byte("client-key-data: c2VjcmV0\n"), 0o600)
	os.MkdirAll(filepath.Join(repo, "a", "local"), 0o755)
	os.WriteFile(filepath.Join(repo, "a", "inside.yaml"), []byte("x: 1\n"), 0o644)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(secret, filepath.Join(repo, "a", "local", "values.yaml")))
	must(os.Symlink(outside, filepath.Join(repo, "b")))
	rel, _ := filepath.Rel(filepath.Join(repo, "a"), secret)
	must(os.Symlink(rel, filepath.Join(repo, "a", "relative.yaml")))
	must(os.Symlink("inside.yaml", filepath.Join(repo, "a", "link.yaml")))

	for _, p := range []string{"a/local/values.yaml", "b/kubeconfig", "a/relative.yaml", "../" + filepath.Base(outside) + "/kubeconfig"} {
		data, err := ReadFile(repo, p)
		var esc *EscapeError
		if !errors.As(err, &esc) || data != nil || strings.Contains(err.Error(), "c2VjcmV0") || !strings.Contains(err.Error(), filepath.Join(repo, p)) {
			t.Errorf("ReadFile(%s) = %q, %v; want an EscapeError naming it", p, data, err)
		}
		if _, err := Stat(repo, p); !errors.As(err, &esc) {
			t.Errorf("Stat(%s): %v", p, err)
		}
	}
	if data, err := ReadFile(repo, "a/link.yaml"); err != nil || string(data) != "x: 1\n" {
		t.Errorf("a link inside the repository: %q, %v", data, err)
	}
	if _, err := ReadFile(repo, "a/none.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestInside(t *testing.T) {
	for _, c := range []struct {
		repo, file, rel string
		ok              bool
	}{
		{"/r", "/r/.a-config.yaml", ".a-config.yaml", true},
		{"/r", "/r/x/../.a-config.yaml", ".a-config.yaml", true},
		{"/r", "/elsewhere/.a-config.yaml", "", false},
		{"/r", "/r/../r2/x", "", false},
		{"/r", "/r/..x", "..x", true},
	} {
		if rel, ok := Inside(c.repo, c.file); rel != c.rel || ok != c.ok {
			t.Errorf("Inside(%s, %s) = %q, %v", c.repo, c.file, rel, ok)
		}
	}
}
