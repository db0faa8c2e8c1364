package render

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/opencenter-dev/opencenter/internal/config"
)

var cases = []string{"minimal", "standard", "keycloak", "managed", "customer"}

func testConfig(name string) string { return filepath.Join("testdata", "configs", name+".yaml") }

// TestGoldenTrees renders one small config per layer feature and compares the
// whole tree with its golden (refresh with go test ./... -update).
func TestGoldenTrees(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/trees"), goldie.WithNameSuffix(".golden"))
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			g.Assert(t, c, treeText(t, plan(t, testConfig(c))))
		})
	}
}

// TestRealTools builds every rendered overlay with kustomize and validates
// every Flux object against the Flux CRDs.
func TestRealTools(t *testing.T) {
	for _, c := range cases {
		t.Run(c, func(t *testing.T) { checkWithTools(t, plan(t, testConfig(c))) })
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range cases {
		a, b := treeText(t, plan(t, testConfig(c))), treeText(t, plan(t, testConfig(c)))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two plans differ", c)
		}
	}
	// And on disk: two renders into two repositories give identical trees.
	r1, r2 := t.TempDir(), t.TempDir()
	for _, r := range []string{r1, r2} {
		renderTo(t, r, testConfig("keycloak"), WriteOptions{})
	}
	if dirHash(t, r1) != dirHash(t, r2) {
		t.Error("two renders to disk differ")
	}
}

// renderTo plans and writes a config into repo.
func renderTo(t *testing.T, repo, cfg string, o WriteOptions) error {
	t.Helper()
	return writePlan(repo, plan(t, cfg), o)
}

// writePlan compares a plan with repo and writes the changes.
func writePlan(repo string, p *Plan, o WriteOptions) error {
	changes, err := Diff(repo, p, o)
	if err != nil {
		return err
	}
	return Apply(repo, p, changes)
}

// planOf loads config text and plans it, secrets allowed.
func planOf(t *testing.T, name string, data []byte) *Plan {
	t.Helper()
	f, err := config.Parse(name, data, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(f, Options{AllowPlaintextSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRenderWritesOnlyChanges(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	p := plan(t, testConfig("keycloak"))
	changes, err := Diff(repo, p, WriteOptions{})
	if err != nil || len(changes) != 0 {
		t.Fatalf("re-render of an unchanged config: %d changes, err %v", len(changes), err)
	}
	secret := filepath.Join(repo, p.Overlay, "services/keycloak/20-keycloak/kustomization.yaml")
	if info, err := os.Stat(secret); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("mode of a plain file: %v %v", info.Mode(), err)
	}
}

func TestSecretModeAndRefusal(t *testing.T) {
	f := loadConfig(t, testConfig("customer"))
	_, err := Build(f, Options{})
	if err == nil || !strings.Contains(err.Error(), "--allow-plaintext-secrets") || !strings.Contains(err.Error(), "customer-apps-ssh.yaml") {
		t.Fatalf("want a refusal naming the secret file and the flag, got %v", err)
	}
	if !strings.Contains(err.Error(), "customer.yaml:") {
		t.Errorf("the error should name the config file: %v", err)
	}
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("customer"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(repo, OverlayDir("customer"), "customer-managed/sources/customer-apps-ssh.yaml"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("secret file mode: %v %v", info, err)
	}
}

// TestFailureLeavesDiskUntouched renders, then renders a config whose plan
// fails, and a config whose write is refused: the tree is byte-identical.
// TestSecretModeAfterCheckout: git checks secret files out as 0644; that is
// no difference for --check, and a render restores 0600 without rewriting.
func TestSecretModeAfterCheckout(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("customer"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(repo, OverlayDir("customer"), "customer-managed/sources/customer-apps-ssh.yaml")
	os.Chmod(secret, 0o644)
	p := plan(t, testConfig("customer"))
	changes, err := Diff(repo, p, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(Differences(changes)) != 0 || len(changes) != 1 || changes[0].Op != OpMode {
		t.Fatalf("want one mode change and no differences, got %+v", changes)
	}
	before, _ := os.Stat(secret)
	if err := Apply(repo, p, changes); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(secret)
	if after.Mode().Perm() != 0o600 || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("mode %v, rewritten %v", after.Mode(), !after.ModTime().Equal(before.ModTime()))
	}
}

func TestFailureLeavesDiskUntouched(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	before := dirHash(t, repo)

	// keycloak without its requirements fails planning, naming the missing unit.
	data, _ := os.ReadFile(testConfig("keycloak"))
	broken := strings.Replace(string(data), "postgres-operator: {enabled: true}", "postgres-operator: {enabled: false}", 1)
	f, err := config.Parse("broken.yaml", []byte(broken), config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(f, Options{})
	if err == nil || !strings.Contains(err.Error(), "keycloak requires postgres-operator, which is not active (gate: opencenter.services.postgres-operator.enabled is not true): enable it or disable keycloak") {
		t.Fatalf("want the requires message, got:\n%v", err)
	}
	// One cause, one message: not again for each of keycloak's Flux units
	// that depends on postgres-operator's.
	if strings.Contains(err.Error(), "depends on postgres-operator-base") {
		t.Errorf("want the missing postgres-operator reported once, got:\n%v", err)
	}

	// A hand edit makes the next render refuse before writing anything.
	edited := filepath.Join(repo, OverlayDir("keycloak"), "services/keycloak/10-operator/kustomization.yaml")
	appendFile(t, edited, "# my change\n")
	before = dirHash(t, repo)
	data = []byte(strings.Replace(string(data), "instances: 2", "instances: 3", 1))
	if _, err := Diff(repo, planOf(t, "keycloak.yaml", data), WriteOptions{}); err == nil {
		t.Fatal("want a refusal for the hand-edited file")
	}
	if dirHash(t, repo) != before {
		t.Error("a refused render changed the disk")
	}
}

func appendFile(t *testing.T, name, s string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func TestForeignAndEditedFiles(t *testing.T) {
	repo := t.TempDir()
	cfg := testConfig("standard")
	if err := renderTo(t, repo, cfg, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(repo, OverlayDir("standard"))
	edited := filepath.Join(overlay, "services/postgres-operator/helm-values/override-values.yaml")
	appendFile(t, edited, "extra: value\n")
	foreign := filepath.Join(overlay, "services/notes.yaml")
	if err := os.WriteFile(foreign, []byte("hand: written\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	editedBytes, _ := os.ReadFile(edited)

	// A re-render would overwrite the edit (the file is in the plan) and
	// delete the foreign file (it is not): both refused, exit 3.
	err := renderTo(t, repo, cfg, WriteOptions{})
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("want RefusedError, got %v", err)
	}
	msg := re.Error()
	for _, want := range []string{"services/notes.yaml: foreign (not written by opencenter), would delete", "override-values.yaml: edited by hand since opencenter wrote it, would update", "--force"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	if b, _ := os.ReadFile(edited); !bytes.Equal(b, editedBytes) {
		t.Error("the hand-edited file was changed")
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Error("the foreign file was deleted")
	}

	// --force proceeds: the edit is replaced, the foreign file removed.
	if err := renderTo(t, repo, cfg, WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(edited); bytes.Contains(b, []byte("extra: value")) {
		t.Error("--force did not restore the rendered file")
	}
	if _, err := os.Stat(foreign); !os.IsNotExist(err) {
		t.Error("--force did not delete the foreign file")
	}
}

func TestStaleFilesRemoved(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(repo, OverlayDir("keycloak"))
	hpa := filepath.Join(overlay, "services/keycloak/20-keycloak/keycloak-hpa.yaml")
	if _, err := os.Stat(hpa); err != nil {
		t.Fatal("the HPA should be rendered when max_replicas is set")
	}
	data, _ := os.ReadFile(testConfig("keycloak"))
	data = []byte(strings.Replace(string(data), "      max_replicas: 5\n", "", 1))
	if err := writePlan(repo, planOf(t, "keycloak.yaml", data), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(hpa); !os.IsNotExist(err) {
		t.Error("the HPA of a config without max_replicas should be deleted")
	}
	k, _ := os.ReadFile(filepath.Join(overlay, "services/keycloak/20-keycloak/kustomization.yaml"))
	if bytes.Contains(k, []byte("keycloak-hpa.yaml")) {
		t.Error("the kustomization still lists the HPA")
	}
}

// TestDisabledUnitLeavesNoDirectory: a unit turned off loses its files,
// and the directories they emptied go too.
func TestDisabledUnitLeavesNoDirectory(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, OverlayDir("keycloak"), "services/keycloak")
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(testConfig("keycloak"))
	data = []byte(strings.Replace(string(data), "    keycloak:\n      enabled: true\n", "    keycloak:\n      enabled: false\n", 1))
	if err := writePlan(repo, planOf(t, "keycloak.yaml", data), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("services/keycloak is left behind: %v", err)
	}
}

// TestRerenderTidies: a re-render with nothing to change still removes
// what an interrupted render left, each kind on its own: a temporary file
// in an owned directory or at the overlay root, the staging directory of a
// first render, an empty owned directory (and the one it empties).
func TestRerenderTidies(t *testing.T) {
	leftovers := map[string]func(overlay string) error{
		"temp file": func(o string) error {
			return os.WriteFile(filepath.Join(o, "services/keycloak", tmpPrefix+"1-2"+tmpSuffix), nil, 0o644)
		},
		"temp file at the root": func(o string) error {
			return os.WriteFile(filepath.Join(o, tmpPrefix+"3-4"+tmpSuffix), nil, 0o644)
		},
		"staging directory": func(o string) error {
			return os.MkdirAll(filepath.Join(o, tmpPrefix+"5-6"+tmpSuffix, "services"), 0o755)
		},
		"empty directories": func(o string) error {
			return os.MkdirAll(filepath.Join(o, "services/keycloak/gone/deeper"), 0o755)
		},
		"empty directory walked last": func(o string) error {
			return os.MkdirAll(filepath.Join(o, OwnedDirs[len(OwnedDirs)-1], "zz"), 0o755)
		},
	}
	for name, leave := range leftovers {
		t.Run(name, func(t *testing.T) {
			repo := t.TempDir()
			cfg := testConfig("keycloak")
			if err := renderTo(t, repo, cfg, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			overlay := filepath.Join(repo, OverlayDir("keycloak"))
			before := treeOf(t, overlay)
			if err := leave(overlay); err != nil {
				t.Fatal(err)
			}
			p := plan(t, cfg)
			changes, err := Diff(repo, p, WriteOptions{})
			if err != nil || len(changes) != 0 {
				t.Fatalf("want no changes, got %+v, %v", changes, err)
			}
			if err := Apply(repo, p, changes); err != nil {
				t.Fatal(err)
			}
			if after := treeOf(t, overlay); !slices.Equal(after, before) {
				t.Errorf("left after the re-render: %v", slices.DeleteFunc(after, func(p string) bool { return slices.Contains(before, p) }))
			}
		})
	}
}

// treeOf lists every path under root, directories too.
func treeOf(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		out = append(out, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFluxSystemUntouched(t *testing.T) {
	repo := t.TempDir()
	fs := filepath.Join(repo, OverlayDir("keycloak"), "flux-system")
	if err := os.MkdirAll(fs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"gotk-components.yaml": "# bootstrap\n", "kustomization.yaml": "resources: [gotk-components.yaml]\n"} {
		if err := os.WriteFile(filepath.Join(fs, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := dirHash(t, fs)
	for range 2 {
		if err := renderTo(t, repo, testConfig("keycloak"), WriteOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	if dirHash(t, fs) != before {
		t.Error("flux-system/ changed")
	}
}

func TestSymlinkRejected(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	overlay := filepath.Join(repo, OverlayDir("keycloak"))
	if err := os.MkdirAll(overlay, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(overlay, "services")); err != nil {
		t.Fatal(err)
	}
	err := renderTo(t, repo, testConfig("keycloak"), WriteOptions{Force: true})
	var ue *UnsafeError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("want UnsafeError for the symlink, got %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files were written through the symlink: %v", entries)
	}
}

// TestIrregularFileRefused: where the plan puts a file, a symbolic link
// (even to a file opencenter wrote) or a directory is refused, with or
// without --force, and nothing is written through the link.
func TestIrregularFileRefused(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	cfg := testConfig("standard")
	if err := renderTo(t, repo, cfg, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(repo, OverlayDir("standard"))
	const linked, dir = "services/postgres-operator/helm-values/override-values.yaml", "services/postgres-operator/kustomization.yaml"
	target := filepath.Join(outside, "target.yaml")
	written, err := os.ReadFile(filepath.Join(overlay, linked))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, written, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{linked, dir} {
		if err := os.Remove(filepath.Join(overlay, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, filepath.Join(overlay, linked)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(overlay, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, force := range []bool{false, true} {
		err := renderTo(t, repo, cfg, WriteOptions{Force: force})
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("force %v: want RefusedError, got %v", force, err)
		}
		for _, p := range []string{linked, dir} {
			if !strings.Contains(re.Error(), p+": foreign (not written by opencenter), would update") {
				t.Errorf("force %v: the refusal does not name %s:\n%s", force, p, re.Error())
			}
		}
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, written) {
		t.Error("the link's target was changed")
	}
	if info, err := os.Lstat(filepath.Join(overlay, dir)); err != nil || !info.IsDir() {
		t.Errorf("the directory was replaced: %v %v", info, err)
	}
}

// TestDiffOutsideTheWalk: a plan file where the walk of the owned paths
// does not look is looked at on its own, and a file there that opencenter
// did not write is refused as anywhere else.
func TestDiffOutsideTheWalk(t *testing.T) {
	for rel, want := range map[string]bool{
		"kustomization.yaml": true, ".sops.yaml": true, "services/a/b.yaml": true, "customer-managed/x.yaml": true,
		"services": false, "notes/x.yaml": false, "x.yaml": false, "services/local/x.yaml": false,
		"services/a/" + tmpPrefix + "1" + tmpSuffix: false,
	} {
		if got := inOwnedWalk(rel); got != want {
			t.Errorf("inOwnedWalk(%q) = %v, want %v", rel, got, want)
		}
	}
	repo := t.TempDir()
	p := &Plan{Overlay: OverlayDir("outside"), Files: []File{{Path: "notes/x.yaml", Data: []byte("a: b\n"), Unit: "notes"}}}
	full := filepath.Join(repo, p.Overlay, "notes/x.yaml")
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte("hand: written\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Diff(repo, p, WriteOptions{})
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(re.Error(), "notes/x.yaml: foreign (not written by opencenter), would update") {
		t.Fatalf("want the foreign file refused, got %v", err)
	}
}

// TestSymlinkAboveOverlay: a link anywhere on the way to the overlay is refused.
func TestSymlinkAboveOverlay(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(repo, "applications")); err != nil {
		t.Fatal(err)
	}
	err := renderTo(t, repo, testConfig("minimal"), WriteOptions{})
	var ue *UnsafeError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), filepath.Join(repo, "applications")+" is a symbolic link") {
		t.Fatalf("want UnsafeError naming applications/, got %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files were written through the symlink: %v", entries)
	}
}

func TestUnsafePath(t *testing.T) {
	for p, want := range map[string]string{
		"services/x.yaml":        "",
		"../x.yaml":              "not a clean relative path",
		"services/../../x":       "not a clean relative path",
		"/etc/passwd":            "absolute",
		"flux-system/x.yaml":     "flux bootstrap",
		"services/./x.yaml":      "not a clean relative path",
		"":                       "empty",
		"services/fluxcd/a.yaml": "",
	} {
		if got := unsafePath(p); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("unsafePath(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestOnlyUnit(t *testing.T) {
	full, only := t.TempDir(), t.TempDir()
	if err := renderTo(t, full, testConfig("keycloak"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := renderTo(t, only, testConfig("keycloak"), WriteOptions{Only: "olm"}); err != nil {
		t.Fatal(err)
	}
	p := plan(t, testConfig("keycloak"))
	for _, f := range p.Files {
		b, err := os.ReadFile(filepath.Join(only, p.Overlay, f.Path))
		inScope := f.Unit == "olm" || f.Aggregate
		switch {
		case inScope && err != nil:
			t.Errorf("--only olm did not write %s", f.Path)
		case inScope:
			want, _ := os.ReadFile(filepath.Join(full, p.Overlay, f.Path))
			if !bytes.Equal(b, want) {
				t.Errorf("--only olm wrote %s with other bytes than a full render", f.Path)
			}
		case err == nil:
			t.Errorf("--only olm wrote %s of unit %s", f.Path, f.Unit)
		}
	}
}

func TestHeaderOwnership(t *testing.T) {
	data := withHeader(".x-config.yaml", "keycloak", "", []byte("a: 1\n"))
	if st, unit := ownership(data); st != Owned || unit != "keycloak" {
		t.Errorf("fresh file: %v %q", st, unit)
	}
	// The header holds nothing of the content: an edit is provenance's to tell.
	if st, _ := ownership(append(data, "b: 2\n"...)); st != Owned {
		t.Errorf("edited file: %v", st)
	}
	legacy := []byte("# Code generated by opencenter from .x-config.yaml (unit loki). DO NOT EDIT. sha256:0123456789abcdef\na: 1\n")
	if st, unit := ownership(legacy); st != Owned || unit != "loki" {
		t.Errorf("a header with the body hash of earlier versions: %v %q", st, unit)
	}
	if st, _ := ownership([]byte("a: 1\n")); st != Foreign {
		t.Errorf("foreign file: %v", st)
	}
}

// TestIsLocal holds isLocal to its definition, the path's directories
// looked at one by one with path.Dir, over clean paths.
func TestIsLocal(t *testing.T) {
	segs := []string{"local", "a", "locals", "services", "l", "xlocal", "local.yaml"}
	var paths []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, s := range segs {
			p := s
			if prefix != "" {
				p = prefix + "/" + s
			}
			paths = append(paths, p)
			gen(p, depth-1)
		}
	}
	gen("", 4)
	for _, p := range paths {
		want := false
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if path.Base(d) == LocalDir {
				want = true
			}
		}
		if got := isLocal(p); got != want {
			t.Errorf("isLocal(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestCleanInside holds cleanInside to its definition, path.Clean(p) == p
// with no leading "..", over the relative paths made of a few segments.
func TestCleanInside(t *testing.T) {
	segs := []string{"a", "b.yaml", ".", "..", "", "...", ".a"}
	paths := slices.Clone(segs)
	for range 3 {
		for _, p := range paths {
			for _, s := range segs {
				paths = append(paths, p+"/"+s)
			}
		}
		paths = slices.Compact(slices.Sorted(slices.Values(paths)))
	}
	checked := 0
	for _, p := range paths {
		if p == "" || p == "." || strings.HasPrefix(p, "/") { // unsafePath refuses these first
			continue
		}
		want := path.Clean(p) == p && p != ".." && !strings.HasPrefix(p, "../")
		if got := cleanInside(p); got != want {
			t.Errorf("cleanInside(%q) = %v, want %v", p, got, want)
		}
		checked++
	}
	t.Logf("%d paths", checked)
}

// TestExpandPlaceholders holds the one-pass expansion to replacing
// {overlay}, then {namespace}, in descriptor strings and odd ones.
func TestExpandPlaceholders(t *testing.T) {
	const overlay, namespace = "applications/overlays/k8s-dev", "loki"
	for _, s := range []string{"", "x", "{overlay}/services/loki", "{overlay}/{namespace}/x", "{namespace}", "{", "}", "{{overlay}}",
		"{overla}", "a{overlay", "{overlay}{overlay}{namespace}{namespace}", "{x}{overlay}", "{{namespace}"} {
		for _, prefix := range []string{"", "./"} {
			want := prefix + strings.ReplaceAll(strings.ReplaceAll(s, "{overlay}", overlay), "{namespace}", namespace)
			if got := expandPlaceholders(prefix, s, overlay, namespace); got != want {
				t.Errorf("expandPlaceholders(%q, %q) = %q, want %q", prefix, s, got, want)
			}
		}
	}
}
