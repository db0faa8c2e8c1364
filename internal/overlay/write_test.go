package overlay_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/overlay/overlaytest"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
)

// renderTo plans and writes a config into repo.
func renderTo(t *testing.T, repo, cfg string, o overlay.WriteOptions) error {
	t.Helper()
	return writePlan(repo, fixturePlan(t, cfg), o)
}

// writePlan compares a plan with repo and writes the changes.
func writePlan(repo string, p *plan.Plan, o overlay.WriteOptions) error {
	changes, err := overlay.Diff(repo, &p.Tree, o)
	if err != nil {
		return err
	}
	return overlay.Apply(repo, &p.Tree, changes)
}

// planOf loads config text and plans it, secrets allowed.
func planOf(t *testing.T, name string, data []byte) *plan.Plan {
	t.Helper()
	f, err := config.Parse(name, data, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(f, plan.Options{AllowPlaintextSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRenderWritesOnlyChanges(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	p := fixturePlan(t, testConfig("keycloak"))
	changes, err := overlay.Diff(repo, &p.Tree, overlay.WriteOptions{})
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
	_, err := plan.Build(f, plan.Options{})
	if err == nil || !strings.Contains(err.Error(), "--allow-plaintext-secrets") || !strings.Contains(err.Error(), "customer-apps-ssh.yaml") {
		t.Fatalf("want a refusal naming the secret file and the flag, got %v", err)
	}
	if !strings.Contains(err.Error(), "customer.yaml:") {
		t.Errorf("the error should name the config file: %v", err)
	}
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("customer"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(repo, overlay.Dir("customer"), "customer-managed/sources/customer-apps-ssh.yaml"))
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
	if err := renderTo(t, repo, testConfig("customer"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(repo, overlay.Dir("customer"), "customer-managed/sources/customer-apps-ssh.yaml")
	os.Chmod(secret, 0o644)
	p := fixturePlan(t, testConfig("customer"))
	changes, err := overlay.Diff(repo, &p.Tree, overlay.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(overlay.Differences(changes)) != 0 || len(changes) != 1 || changes[0].Op != overlay.OpMode {
		t.Fatalf("want one mode change and no differences, got %+v", changes)
	}
	before, _ := os.Stat(secret)
	if err := overlay.Apply(repo, &p.Tree, changes); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(secret)
	if after.Mode().Perm() != 0o600 || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("mode %v, rewritten %v", after.Mode(), !after.ModTime().Equal(before.ModTime()))
	}
}

func TestFailureLeavesDiskUntouched(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	before := overlaytest.DirHash(t, repo)

	// keycloak without its requirements fails planning, naming the missing unit.
	data, _ := os.ReadFile(testConfig("keycloak"))
	broken := strings.Replace(string(data), "postgres-operator: {enabled: true}", "postgres-operator: {enabled: false}", 1)
	f, err := config.Parse("broken.yaml", []byte(broken), config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Build(f, plan.Options{})
	if err == nil || !strings.Contains(err.Error(), "keycloak requires postgres-operator, which is not active (gate: opencenter.services.postgres-operator.enabled is not true): enable it or disable keycloak") {
		t.Fatalf("want the requires message, got:\n%v", err)
	}
	// One cause, one message: not again for each of keycloak's Flux units
	// that depends on postgres-operator's.
	if strings.Contains(err.Error(), "depends on postgres-operator-base") {
		t.Errorf("want the missing postgres-operator reported once, got:\n%v", err)
	}

	// A hand edit makes the next render refuse before writing anything.
	edited := filepath.Join(repo, overlay.Dir("keycloak"), "services/keycloak/10-operator/kustomization.yaml")
	appendFile(t, edited, "# my change\n")
	before = overlaytest.DirHash(t, repo)
	data = []byte(strings.Replace(string(data), "instances: 2", "instances: 3", 1))
	if _, err := overlay.Diff(repo, &planOf(t, "keycloak.yaml", data).Tree, overlay.WriteOptions{}); err == nil {
		t.Fatal("want a refusal for the hand-edited file")
	}
	if overlaytest.DirHash(t, repo) != before {
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
	if err := renderTo(t, repo, cfg, overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(repo, overlay.Dir("standard"))
	edited := filepath.Join(ov, "services/postgres-operator/helm-values/override-values.yaml")
	appendFile(t, edited, "extra: value\n")
	foreign := filepath.Join(ov, "services/notes.yaml")
	if err := os.WriteFile(foreign, []byte("hand: written\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	editedBytes, _ := os.ReadFile(edited)

	// A re-render would overwrite the edit (the file is in the plan) and
	// delete the foreign file (it is not): both refused, exit 3.
	err := renderTo(t, repo, cfg, overlay.WriteOptions{})
	var re *overlay.RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("want overlay.RefusedError, got %v", err)
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
	if err := renderTo(t, repo, cfg, overlay.WriteOptions{Force: true}); err != nil {
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
	if err := renderTo(t, repo, testConfig("keycloak"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(repo, overlay.Dir("keycloak"))
	hpa := filepath.Join(ov, "services/keycloak/20-keycloak/keycloak-hpa.yaml")
	if _, err := os.Stat(hpa); err != nil {
		t.Fatal("the HPA should be rendered when max_replicas is set")
	}
	data, _ := os.ReadFile(testConfig("keycloak"))
	data = []byte(strings.Replace(string(data), "      max_replicas: 5\n", "", 1))
	if err := writePlan(repo, planOf(t, "keycloak.yaml", data), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(hpa); !os.IsNotExist(err) {
		t.Error("the HPA of a config without max_replicas should be deleted")
	}
	k, _ := os.ReadFile(filepath.Join(ov, "services/keycloak/20-keycloak/kustomization.yaml"))
	if bytes.Contains(k, []byte("keycloak-hpa.yaml")) {
		t.Error("the kustomization still lists the HPA")
	}
}

// TestDisabledUnitLeavesNoDirectory: a unit turned off loses its files,
// and the directories they emptied go too.
func TestDisabledUnitLeavesNoDirectory(t *testing.T) {
	repo := t.TempDir()
	if err := renderTo(t, repo, testConfig("keycloak"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, overlay.Dir("keycloak"), "services/keycloak")
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(testConfig("keycloak"))
	data = []byte(strings.Replace(string(data), "    keycloak:\n      enabled: true\n", "    keycloak:\n      enabled: false\n", 1))
	if err := writePlan(repo, planOf(t, "keycloak.yaml", data), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("services/keycloak is left behind: %v", err)
	}
}

// TestRerenderTidies: a re-render with nothing to change still removes
// what an interrupted render left, each kind on its own: a temporary file
// in an owned directory or at the ov root, the staging directory of a
// first render, an empty owned directory (and the one it empties).
func TestRerenderTidies(t *testing.T) {
	leftovers := map[string]func(ov string) error{
		"temp file": func(o string) error {
			return os.WriteFile(filepath.Join(o, "services/keycloak", overlay.TmpPrefix+"1-2"+overlay.TmpSuffix), nil, 0o644)
		},
		"temp file at the root": func(o string) error {
			return os.WriteFile(filepath.Join(o, overlay.TmpPrefix+"3-4"+overlay.TmpSuffix), nil, 0o644)
		},
		"staging directory": func(o string) error {
			return os.MkdirAll(filepath.Join(o, overlay.TmpPrefix+"5-6"+overlay.TmpSuffix, "services"), 0o755)
		},
		"empty directories": func(o string) error {
			return os.MkdirAll(filepath.Join(o, "services/keycloak/gone/deeper"), 0o755)
		},
		"empty directory walked last": func(o string) error {
			return os.MkdirAll(filepath.Join(o, overlay.OwnedDirs[len(overlay.OwnedDirs)-1], "zz"), 0o755)
		},
	}
	for name, leave := range leftovers {
		t.Run(name, func(t *testing.T) {
			repo := t.TempDir()
			cfg := testConfig("keycloak")
			if err := renderTo(t, repo, cfg, overlay.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			ov := filepath.Join(repo, overlay.Dir("keycloak"))
			before := treeOf(t, ov)
			if err := leave(ov); err != nil {
				t.Fatal(err)
			}
			p := fixturePlan(t, cfg)
			changes, err := overlay.Diff(repo, &p.Tree, overlay.WriteOptions{})
			if err != nil || len(changes) != 0 {
				t.Fatalf("want no changes, got %+v, %v", changes, err)
			}
			if err := overlay.Apply(repo, &p.Tree, changes); err != nil {
				t.Fatal(err)
			}
			if after := treeOf(t, ov); !slices.Equal(after, before) {
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
	fs := filepath.Join(repo, overlay.Dir("keycloak"), "flux-system")
	if err := os.MkdirAll(fs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"gotk-components.yaml": "# bootstrap\n", "kustomization.yaml": "resources: [gotk-components.yaml]\n"} {
		if err := os.WriteFile(filepath.Join(fs, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := overlaytest.DirHash(t, fs)
	for range 2 {
		if err := renderTo(t, repo, testConfig("keycloak"), overlay.WriteOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	if overlaytest.DirHash(t, fs) != before {
		t.Error("flux-system/ changed")
	}
}

func TestSymlinkRejected(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	ov := filepath.Join(repo, overlay.Dir("keycloak"))
	if err := os.MkdirAll(ov, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ov, "services")); err != nil {
		t.Fatal(err)
	}
	err := renderTo(t, repo, testConfig("keycloak"), overlay.WriteOptions{Force: true})
	var ue *overlay.UnsafeError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("want overlay.UnsafeError for the symlink, got %v", err)
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
	if err := renderTo(t, repo, cfg, overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(repo, overlay.Dir("standard"))
	const linked, dir = "services/postgres-operator/helm-values/override-values.yaml", "services/postgres-operator/kustomization.yaml"
	target := filepath.Join(outside, "target.yaml")
	written, err := os.ReadFile(filepath.Join(ov, linked))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, written, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{linked, dir} {
		if err := os.Remove(filepath.Join(ov, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, filepath.Join(ov, linked)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(ov, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, force := range []bool{false, true} {
		err := renderTo(t, repo, cfg, overlay.WriteOptions{Force: force})
		var re *overlay.RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("force %v: want overlay.RefusedError, got %v", force, err)
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
	if info, err := os.Lstat(filepath.Join(ov, dir)); err != nil || !info.IsDir() {
		t.Errorf("the directory was replaced: %v %v", info, err)
	}
}

// TestSymlinkAboveOverlay: a link anywhere on the way to the ov is refused.
func TestSymlinkAboveOverlay(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(repo, "applications")); err != nil {
		t.Fatal(err)
	}
	err := renderTo(t, repo, testConfig("minimal"), overlay.WriteOptions{})
	var ue *overlay.UnsafeError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), filepath.Join(repo, "applications")+" is a symbolic link") {
		t.Fatalf("want overlay.UnsafeError naming applications/, got %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files were written through the symlink: %v", entries)
	}
}

func TestOnlyUnit(t *testing.T) {
	full, only := t.TempDir(), t.TempDir()
	if err := renderTo(t, full, testConfig("keycloak"), overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := renderTo(t, only, testConfig("keycloak"), overlay.WriteOptions{Only: "olm"}); err != nil {
		t.Fatal(err)
	}
	p := fixturePlan(t, testConfig("keycloak"))
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

// testConfig is the path of one of the plan package's test configs.
func testConfig(name string) string {
	return filepath.Join("..", "plan", "testdata", "configs", name+".yaml")
}

// loadConfig loads and checks a test config.
func loadConfig(t testing.TB, name string) *config.File {
	t.Helper()
	f, err := config.Load(name, config.LoadOptions{})
	if err != nil {
		t.Fatalf("loading %s:\n%v", name, err)
	}
	return f
}

// buildPlan builds a loaded config's plan, secrets allowed.
func buildPlan(t testing.TB, f *config.File) *plan.Plan {
	t.Helper()
	p, err := plan.Build(f, plan.Options{AllowPlaintextSecrets: true})
	if err != nil {
		t.Fatalf("planning %s:\n%v", f.Name, err)
	}
	return p
}

// fixturePlan builds the plan of a test config, secrets allowed.
func fixturePlan(t testing.TB, name string) *plan.Plan {
	t.Helper()
	return buildPlan(t, loadConfig(t, name))
}
