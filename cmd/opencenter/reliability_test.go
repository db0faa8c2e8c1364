package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/repolock"
)

func TestConfigMustBeARegularFile(t *testing.T) {
	repo := t.TempDir()
	fifo := filepath.Join(repo, ".k8s-pipe-config.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"validate", "--repo", repo}, {"render", "--repo", repo}, {"validate", fifo}} {
		done := make(chan struct{})
		var code int
		var stderr string
		go func() { code, _, stderr = runCLI(args...); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%v hangs on a FIFO", args)
		}
		if code != exitBadInput || !strings.Contains(stderr, fifo+": is a FIFO") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
}

func TestDiagnosticsFloodIsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("schema_version: 1\nopencenter:\n  meta:\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "    k%d: x\n", i)
	}
	file := filepath.Join(t.TempDir(), ".k8s-flood-config.yaml")
	os.WriteFile(file, []byte(b.String()), 0o644)
	code, _, stderr := runCLI("validate", file)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != exitBadInput || len(lines) != 101 || !strings.Contains(lines[100], "and 19900 more problems") {
		t.Fatalf("exit %d, %d lines, last %q", code, len(lines), lines[len(lines)-1])
	}
}

func TestTwoConfigsOneCluster(t *testing.T) {
	repo := copyFixtureConfigs(t)
	b, _ := os.ReadFile(filepath.Join(repo, ".k8s-dev-config.yaml"))
	other := filepath.Join(repo, "copy-of-dev.yaml")
	os.WriteFile(other, b, 0o644)
	dev := filepath.Join(repo, ".k8s-dev-config.yaml")
	for _, cmd := range []string{"validate", "render"} {
		code, _, stderr := runCLI(cmd, "--repo", repo, dev, other, filepath.Join(repo, ".k8s-qa-config.yaml"))
		if code != exitBadInput || strings.Count(stderr, "cluster k8s-dev is named by 2 configs ("+dev+", "+other+")") != 2 {
			t.Errorf("%s: exit %d\n%s", cmd, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "applications/overlays/k8s-dev")); !os.IsNotExist(err) {
		t.Error("an overlay was written for a cluster two configs name")
	}
	if _, err := os.Stat(filepath.Join(repo, "applications/overlays/k8s-qa")); err != nil {
		t.Error("the other cluster is rendered all the same")
	}
}

func TestOrphanedOverlays(t *testing.T) {
	repo := copyFixtureConfigs(t)
	if code, _, stderr := runCLI("render", "--repo", repo); code != 0 {
		t.Fatalf("render: %d\n%s", code, stderr)
	}
	// The cluster is renamed: a new overlay, the old one an orphan.
	old := filepath.Join(repo, ".k8s-uat-config.yaml")
	b, _ := os.ReadFile(old)
	b = []byte(strings.NewReplacer("cluster_name: k8s-uat", "cluster_name: k8s-stage", "name: k8s-uat", "name: k8s-stage").Replace(string(b)))
	os.Remove(old)
	os.WriteFile(filepath.Join(repo, ".k8s-stage-config.yaml"), b, 0o644)
	uat := filepath.Join(repo, "applications/overlays/k8s-uat")
	foreign := filepath.Join(uat, "services/NOTES.md")
	os.WriteFile(foreign, []byte("mine\n"), 0o644)
	os.MkdirAll(filepath.Join(uat, "flux-system"), 0o755)
	os.WriteFile(filepath.Join(uat, "flux-system/gotk-sync.yaml"), []byte("bootstrap's\n"), 0o644)

	code, _, stderr := runCLI("render", "--repo", repo, "--check")
	if code != exitDiffers || !strings.Contains(stderr, "orphan: applications/overlays/k8s-uat holds") {
		t.Fatalf("--check: exit %d\n%s", code, stderr)
	}
	if code, stdout, stderr := runCLI("render", "--repo", repo); code != 0 || !strings.Contains(stdout, "applications/overlays/k8s-stage:") || !strings.Contains(stderr, "orphan: applications/overlays/k8s-uat") {
		t.Fatalf("render reports the orphan and writes the new overlay: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI("render", "--repo", repo, "--prune")
	if code != 0 || !strings.Contains(stdout, "applications/overlays/k8s-uat: pruned") || !strings.Contains(stderr, "services/NOTES.md: kept") {
		t.Fatalf("--prune: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var left []string
	filepath.WalkDir(uat, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			left = append(left, strings.TrimPrefix(p, uat+"/"))
		}
		return nil
	})
	if strings.Join(left, ",") != "flux-system/gotk-sync.yaml,services/NOTES.md" {
		t.Errorf("after --prune: %v", left)
	}
	if code, _, stderr := runCLI("render", "--repo", repo, "--check"); code != 0 {
		t.Errorf("--check after --prune: exit %d\n%s", code, stderr)
	}
}

func TestRepositoryLock(t *testing.T) {
	repo := copyFixtureConfigs(t)
	lock, err := repolock.Acquire(repo, true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("render", "--repo", repo, "--wait", "100ms")
	if code != exitBusy || !strings.Contains(stderr, "another opencenter process is rendering this repository") {
		t.Fatalf("busy: exit %d\n%s", code, stderr)
	}
	lock.Release()
	if _, err := os.Stat(filepath.Join(repo, "applications")); !os.IsNotExist(err) {
		t.Fatal("a render that could not lock wrote files")
	}

	// Concurrent renders take turns: all succeed, and the tree is a clean render's.
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := range codes {
		wg.Go(func() { codes[i], _, _ = runCLI("render", "--repo", repo) })
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 {
			t.Errorf("render %d: exit %d", i, c)
		}
	}
	if code, stdout, _ := runCLI("render", "--repo", repo, "--check"); code != 0 || stdout != "" {
		t.Errorf("after concurrent renders: exit %d\n%s", code, stdout)
	}
}

// TestKilledRenders kills real render processes (kill -9) at random points,
// and runs renders concurrently; every next plain render must converge to a
// clean render's tree, without --force. A few rounds here; make stress runs
// OPENCENTER_STRESS_ROUNDS of them.
func TestKilledRenders(t *testing.T) {
	rounds := 3
	if s := os.Getenv("OPENCENTER_STRESS_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
	}
	bin := filepath.Join(t.TempDir(), "opencenter")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(repo string, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"render", "--repo", repo}, args...)...)
		cmd.Env = append(os.Environ(), "SOPS_AGE_KEY_FILE="+fixturekey.Path())
		return cmd
	}
	// The reference: a clean render, checked with --check from then on.
	killed, concurrent := 0, 0
	for round := range rounds {
		repo := copyFixtureConfigs(t)
		if round%2 == 1 {
			// Half the rounds start from an older tree, so the killed render updates and deletes.
			if out, err := run(repo).CombinedOutput(); err != nil {
				t.Fatalf("first render: %v\n%s", err, out)
			}
			cfg := filepath.Join(repo, ".k8s-dev-config.yaml")
			b, _ := os.ReadFile(cfg)
			os.WriteFile(cfg, []byte(strings.Replace(string(b), "backup_enabled: true", "backup_enabled: false", 1)), 0o644)
		}
		cmd := run(repo)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			killed++
		}
		cmd.Wait()
		// Two renders at once, then the tree must be what --check expects.
		a, b := run(repo), run(repo)
		a.Start()
		b.Start()
		ea, eb := a.Wait(), b.Wait()
		if ea != nil || eb != nil {
			t.Fatalf("round %d: concurrent renders after a kill: %v / %v", round, ea, eb)
		}
		concurrent += 2
		out, err := run(repo, "--check").CombinedOutput()
		if err != nil || strings.Contains(string(out), "create") || strings.Contains(string(out), "update") {
			t.Fatalf("round %d: --check after recovery: %v\n%s", round, err, out)
		}
		filepath.WalkDir(repo, func(p string, e os.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(e.Name(), ".opencenter-") {
				t.Errorf("round %d: %s left behind", round, p)
			}
			return nil
		})
	}
	t.Logf("%d rounds: %d renders killed at random points, %d concurrent renders, every round recovered without --force", rounds, killed, concurrent)
}
