package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opencenter-dev/opencenter/internal/configedit"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
)

// makeFleet writes n configs into repo, derived from the five fixture
// configs by renaming their clusters (k8s-dev -> k8s-dev-0005, ...).
func makeFleet(t testing.TB, repo string, n int) { makeFleetOf(t, repo, n, false) }

// makeFleetOf is makeFleet; plaintext decrypts the configs and turns sops
// off in them, for a fleet whose render does no SOPS work.
func makeFleetOf(t testing.TB, repo string, n int, plaintext bool) {
	t.Helper()
	base, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	var texts [][]byte
	var names []string
	for _, f := range base {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if plaintext {
			b = plaintextConfig(t, b)
		}
		texts = append(texts, b)
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "."), "-config.yaml"))
	}
	for i := range n {
		k := i % len(texts)
		name := fmt.Sprintf("%s-%04d", names[k], i)
		text := bytes.ReplaceAll(texts[k], []byte(names[k]), []byte(name))
		if err := os.WriteFile(filepath.Join(repo, "."+name+"-config.yaml"), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// plaintextConfig decrypts a fixture config and turns sops off in it.
func plaintextConfig(t testing.TB, data []byte) []byte {
	t.Helper()
	plain, err := fixturekey.Decrypt(data)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := configedit.Set(plain, []string{"opencenter", "gitops", "overlay_units", "sops", "enabled"}, "false")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeStats counts the files and bytes under dir.
func treeStats(t testing.TB, dir string) (files, size int) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, _ := d.Info()
			files++
			size += int(info.Size())
		}
		return err
	})
	return files, size
}

// mtimes maps every file under dir to its modification time.
func mtimes(t testing.TB, dir string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, _ := d.Info()
			out[p] = info.ModTime()
		}
		return err
	})
	return out
}

func TestFleetDeterministicAndRerenderWritesNothing(t *testing.T) {
	repo := t.TempDir()
	makeFleet(t, repo, 12)
	code, out1, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Count(out1, "\n") != 12 || !strings.HasPrefix(out1, "applications/overlays/k8s-dev-0000:") {
		t.Fatalf("one line per cluster, in config order:\n%s", out1)
	}
	before := mtimes(t, filepath.Join(repo, "applications"))
	time.Sleep(10 * time.Millisecond)
	code, out2, _ := runCLI("render", "--repo", repo, "--allow-plaintext-secrets")
	if code != 0 || strings.Contains(out2, " 1 created") || !strings.Contains(out2, "0 created, 0 updated, 0 deleted") {
		t.Fatalf("re-render: exit %d\n%s", code, out2)
	}
	after := mtimes(t, filepath.Join(repo, "applications"))
	for p, m := range before {
		if !after[p].Equal(m) {
			t.Errorf("re-rendering an unchanged fleet rewrote %s", p)
		}
	}

	// One bad config fails alone: its cluster is not written, the others are,
	// and the messages stay in config order.
	bad := filepath.Join(repo, ".k8s-qa-0003-config.yaml")
	b, _ := os.ReadFile(bad)
	os.WriteFile(bad, bytes.Replace(b, []byte("interval: "), []byte("interval: forever #"), 1), 0o644)
	os.RemoveAll(filepath.Join(repo, "applications"))
	code, out3, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets")
	if code != exitBadInput || !strings.Contains(stderr, ".k8s-qa-0003-config.yaml:") || strings.Count(out3, "\n") != 11 {
		t.Fatalf("one bad config: exit %d\nstdout:\n%s\nstderr:\n%s", code, out3, stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "applications/overlays/k8s-qa-0003")); !os.IsNotExist(err) {
		t.Error("the failed cluster was written")
	}
}

// benchFleet renders a fleet of n clusters in-process into an empty repository.
func benchFleet(b *testing.B, n int, plaintext bool) {
	configs := b.TempDir()
	makeFleetOf(b, configs, n, plaintext)
	entries, _ := os.ReadDir(configs)
	b.ReportAllocs()
	var files, size int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		repo := filepath.Join(b.TempDir(), "repo")
		os.MkdirAll(repo, 0o755)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(configs, e.Name()))
			os.WriteFile(filepath.Join(repo, e.Name()), data, 0o644)
		}
		b.StartTimer()
		if code, _, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets"); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr)
		}
		b.StopTimer()
		files, size = treeStats(b, filepath.Join(repo, "applications"))
		b.StartTimer()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(files)/sec, "files/s")
	b.ReportMetric(float64(size)/sec, "bytes/s")
}

func BenchmarkFleet250(b *testing.B)  { benchFleet(b, 250, false) }
func BenchmarkFleet1000(b *testing.B) { benchFleet(b, 1000, false) }

// BenchmarkFleet250Plaintext is BenchmarkFleet250 without SOPS work.
func BenchmarkFleet250Plaintext(b *testing.B) { benchFleet(b, 250, true) }

// buildBinary builds opencenter once for the whole-process benchmarks.
func buildBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "opencenter")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// benchProcess times the opencenter process rendering n clusters into an
// empty repository against `tar -x` of the tree it produced (the write-only
// floor), side by side in the same run, and reports the medians of wall time,
// user CPU and CPU (user + system), their ratios, and the render's peak RSS.
// Run it with -benchtime 3x for a median of 3, on tmpfs (TMPDIR=/dev/shm).
func benchProcess(b *testing.B, n int, plaintext bool) {
	bin := buildBinary(b)
	configs := b.TempDir()
	makeFleetOf(b, configs, n, plaintext)
	args := []string{"render"}
	if plaintext {
		args = append(args, "--allow-plaintext-secrets")
	}
	var renderWall, renderUser, renderCPU, tarWall, tarUser, tarCPU []time.Duration
	var maxRSS int64
	timed := func(cmd *exec.Cmd) (wall, user, cpu time.Duration) {
		b.Helper()
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", cmd.Args, err, out[:min(len(out), 2000)])
		}
		st := cmd.ProcessState
		return time.Since(start), st.UserTime(), st.UserTime() + st.SystemTime()
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		repo := filepath.Join(b.TempDir(), "repo")
		if out, err := exec.Command("cp", "-r", configs, repo).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		syscall.Sync() // start from a clean page cache: no earlier writeback lands on this phase
		b.StartTimer()

		cmd := exec.Command(bin, append(args, "--repo", repo)...)
		w, u, c := timed(cmd)
		renderWall, renderUser, renderCPU = append(renderWall, w), append(renderUser, u), append(renderCPU, c)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			maxRSS = max(maxRSS, ru.Maxrss) // KiB on Linux
		}

		b.StopTimer()
		archive := filepath.Join(b.TempDir(), "tree.tar")
		if out, err := exec.Command("tar", "-cf", archive, "-C", repo, "applications").CombinedOutput(); err != nil {
			b.Fatalf("tar -c: %v: %s", err, out)
		}
		dst := b.TempDir()
		syscall.Sync()
		b.StartTimer()
		w, u, c = timed(exec.Command("tar", "-xf", archive, "-C", dst))
		tarWall, tarUser, tarCPU = append(tarWall, w), append(tarUser, u), append(tarCPU, c)
	}
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	b.ReportMetric(float64(med(renderWall).Milliseconds()), "render-ms")
	b.ReportMetric(float64(med(tarWall).Milliseconds()), "tar-x-ms")
	b.ReportMetric(float64(med(renderUser).Milliseconds()), "render-user-ms")
	b.ReportMetric(float64(med(tarUser).Milliseconds()), "tar-x-user-ms")
	b.ReportMetric(med(renderWall).Seconds()/med(tarWall).Seconds(), "wall-render/tar")
	b.ReportMetric(med(renderUser).Seconds()/max(med(tarUser).Seconds(), 0.001), "user-render/tar")
	b.ReportMetric(med(renderCPU).Seconds()/max(med(tarCPU).Seconds(), 0.001), "cpu-render/tar")
	b.ReportMetric(float64(maxRSS)/1024, "peak-RSS-MiB")
}

// BenchmarkProcess1 is one cluster, the fixture's first (k8s-dev, 25
// services): the whole process of a one-off render, the wait a user feels
// (docs/PERFORMANCE.md has its bound).
func BenchmarkProcess1(b *testing.B) { benchProcess(b, 1, false) }

// BenchmarkProcess250 and BenchmarkProcess1000 are fleets of the five
// fixture configs renamed: the bounds of a fleet render are on these.
func BenchmarkProcess250(b *testing.B)  { benchProcess(b, 250, false) }
func BenchmarkProcess1000(b *testing.B) { benchProcess(b, 1000, false) }

// BenchmarkProcess250Plaintext is BenchmarkProcess250 for a fleet whose
// configs are plaintext with sops off: the render without SOPS work (no
// config decrypted, no Secret encrypted).
func BenchmarkProcess250Plaintext(b *testing.B) { benchProcess(b, 250, true) }

// BenchmarkRerender250 re-renders an unchanged fleet: it must write nothing.
func BenchmarkRerender250(b *testing.B) {
	repo := b.TempDir()
	makeFleet(b, repo, 250)
	if code, _, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets"); code != 0 {
		b.Fatalf("exit %d: %s", code, stderr)
	}
	before := mtimes(b, filepath.Join(repo, "applications"))
	b.ResetTimer()
	for b.Loop() {
		if code, _, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets"); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr)
		}
	}
	b.StopTimer()
	written := 0
	for p, m := range mtimes(b, filepath.Join(repo, "applications")) {
		if !before[p].Equal(m) {
			written++
		}
	}
	b.ReportMetric(float64(written), "files-written")
	if written > 0 {
		b.Fatalf("re-rendering an unchanged fleet wrote %d files", written)
	}
}
