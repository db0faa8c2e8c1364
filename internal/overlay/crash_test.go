package overlay_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/overlay/overlaytest"

	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
)

var errCrash = errors.New("crash (injected)")

// TestCrashConverges stops a write after each of its file system operations
// in turn, as a kill -9 would (a partial temporary file included), and
// requires the next plain render (no --force) to converge on exactly the tree
// a clean render produces, with no temporary file or empty directory left.
func TestCrashConverges(t *testing.T) {
	// The old tree differs from the new one by creates, updates and deletes.
	oldCfg := loadConfig(t, testConfig("keycloak"))
	kc := oldCfg.Config.OpenCenter.Services.Keycloak
	three := 3
	kc.Instances, kc.BackupEnabled = &three, false
	oldPlan := buildPlan(t, oldCfg)
	newCfg := loadConfig(t, testConfig("keycloak"))
	newCfg.Config.OpenCenter.Services.Keycloak.MaxReplicas = nil
	newPlan := buildPlan(t, newCfg)

	crashes(t, nil, oldPlan)     // the first render of an overlay
	crashes(t, oldPlan, newPlan) // creates, updates and deletes
}

// crashes renders from (nil: an empty repository) then to, crashing after
// each operation of the second write in turn.
func crashes(t *testing.T, from, to *plan.Plan) {
	t.Helper()
	prepare := func(repo string) {
		if from != nil {
			if err := writePlan(repo, from, overlay.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	newPlan := to
	clean := t.TempDir()
	prepare(clean)
	ops := 0
	*overlay.Step = func(string) error { ops++; return nil }
	t.Cleanup(func() { *overlay.Step = func(string) error { return nil } })
	if err := writePlan(clean, newPlan, overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := overlaytest.DirHash(t, clean)
	if ops < 6 {
		t.Fatalf("%d operations: the scenario is too small", ops)
	}

	for k := range ops {
		repo := t.TempDir()
		*overlay.Step = func(string) error { return nil }
		prepare(repo)
		n := 0
		*overlay.Step = func(string) error {
			if n++; n > k {
				return errCrash
			}
			return nil
		}
		if err := writePlan(repo, newPlan, overlay.WriteOptions{}); !errors.Is(err, errCrash) {
			t.Fatalf("crash after %d operations: %v", k, err)
		}
		*overlay.Step = func(string) error { return nil }
		if err := writePlan(repo, newPlan, overlay.WriteOptions{}); err != nil {
			t.Fatalf("after a crash at operation %d, a plain render fails: %v", k, err)
		}
		if got := overlaytest.DirHash(t, repo); got != want {
			t.Errorf("after a crash at operation %d, the tree differs from a clean render", k)
		}
		filepath.WalkDir(repo, func(p string, e fs.DirEntry, err error) error {
			if err == nil && strings.Contains(e.Name(), overlay.TmpPrefix) {
				t.Errorf("crash at %d: %s left behind", k, p)
			}
			if entries, _ := os.ReadDir(p); err == nil && e.IsDir() && len(entries) == 0 {
				t.Errorf("crash at %d: empty directory %s left behind", k, p)
			}
			return nil
		})
	}
	if !t.Failed() {
		t.Logf("%d crash points, each converged", ops)
	}
}
