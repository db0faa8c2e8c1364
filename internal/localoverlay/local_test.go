package localoverlay

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/inrepo"
)

func TestList(t *testing.T) {
	k := []byte("# Rendered for keycloak.\n# Second line.\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- a.yaml\n")
	for _, tc := range []struct {
		component bool
		want      string
	}{
		{false, "# Rendered for keycloak.\n# Second line.\n# With the user's local/ listed.\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- a.yaml\n- local\n"},
		{true, "# Rendered for keycloak.\n# Second line.\n# With the user's local/ listed.\napiVersion: kustomize.config.k8s.io/v1beta1\ncomponents:\n- local\nkind: Kustomization\nresources:\n- a.yaml\n"},
	} {
		got, err := List(k, tc.component)
		if err != nil || string(got) != tc.want {
			t.Errorf("component %v: got %v\n%s\nwant\n%s", tc.component, err, got, tc.want)
		}
		again, err := List(got[strings.Index(string(got), "apiVersion"):], tc.component)
		if err != nil || again != nil {
			t.Errorf("component %v: listed twice: %v\n%s", tc.component, err, again)
		}
	}
	if _, err := List([]byte("- not\n- a mapping\n"), false); err == nil {
		t.Error("a list is no kustomization")
	}
}

// TestMergeValues: user values lay over generated ones key by key; a
// broken user file is a UserError that places the problem and quotes
// nothing of the file.
func TestMergeValues(t *testing.T) {
	got, err := MergeValues([]byte("a:\n  b: 1\n  c: 2\nd: [1, 2]\n"), []byte("a:\n  c: 3\nd: [9]\n"))
	want := "# Generated values with local/values.yaml laid over them.\na:\n  b: 1\n  c: 3\nd:\n- 9\n"
	if err != nil || string(got) != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, got, want)
	}
	for _, bad := range []string{"password: hunter2\n  oops: [\n", "- hunter2\n", "hunter2: {a: [b}\n"} {
		_, err := MergeValues([]byte("a: 1\n"), []byte(bad))
		var user *UserError
		if !errors.As(err, &user) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestRead: what each local directory holds, nothing for a missing one,
// values only where asked, and a link out of the repository refused.
func TestRead(t *testing.T) {
	repo := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(repo, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := "applications/overlays/c"
	write(o+"/services/a/local/kustomization.yaml", "kind: Component\n")
	write(o+"/services/a/local/values.yaml", "x: 1\n")
	write(o+"/services/b/local/values.yaml", "y: 2\n")
	write(o+"/services/c/local/kustomization.yaml", "kind: Kustomization\n")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "values.yaml"), []byte("stolen: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, o, "services/d/local"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "values.yaml"), filepath.Join(repo, o, "services/d/local/values.yaml")); err != nil {
		t.Fatal(err)
	}
	dirs := []Dir{{"services/a", true}, {"services/b", false}, {"services/c", true}, {"services/d", true}, {"services/none", true}}
	found, problems := Read(repo, o, dirs)
	if l := found[0]; !l.Kustomization || !l.Component || string(l.Values) != "x: 1\n" {
		t.Errorf("a: %+v", l)
	}
	if l := found[1]; l.Found() {
		t.Errorf("b, values not asked for: %+v", l)
	}
	if l := found[2]; !l.Kustomization || l.Component || l.Values != nil {
		t.Errorf("c: %+v", l)
	}
	if l := found[4]; l.Found() {
		t.Errorf("none: %+v", l)
	}
	var esc *inrepo.EscapeError
	if len(problems) != 1 || problems[0].Dir != 3 || !errors.As(problems[0].Err, &esc) || found[3].Values != nil {
		t.Errorf("the link out of the repository: %+v, %+v", problems, found[3])
	}
}
