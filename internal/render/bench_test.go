package render

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/sops"
)

// BenchmarkPlan plans the 25-service k8s-dev fixture cluster in memory.
func BenchmarkPlan(b *testing.B) {
	f := loadConfig(b, "../../testdata/fixture/.k8s-dev-config.yaml")
	b.ReportAllocs()
	var files, bytes int
	for b.Loop() {
		p, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			b.Fatal(err)
		}
		files = len(p.Files)
		bytes = 0
		for _, f := range p.Files {
			bytes += len(f.Data)
		}
	}
	b.ReportMetric(float64(files), "files/plan")
	b.ReportMetric(float64(bytes), "bytes/plan")
}

// BenchmarkPlanFloor does, for k8s-dev's plan, only the work any plan of
// it must do whatever the code around it, in three parts:
//   - hashes: the SHA-256 of each file's body, for its ownership header;
//   - data-keys: for a one-off plan, a fresh data key per recipient set,
//     wrapped for each recipient (X25519) on its first use, here the
//     encryption of one value;
//   - both, the floor under BenchmarkPlan.
//
// It builds, checks and encrypts nothing else, and runs on the machine that
// measures the plan: what it measures, a plan pays whatever the code
// around it, unless a faster SHA-256 or X25519 than the standard
// library's is used.
func BenchmarkPlanFloor(b *testing.B) {
	p := plan(b, "../../testdata/fixture/.k8s-dev-config.yaml")
	var recipientSets [][]string
	hashed := 0
	for _, f := range p.Files {
		hashed += len(body(f.Data))
		if f.Recipients != nil && !slices.ContainsFunc(recipientSets, func(r []string) bool { return slices.Equal(r, f.Recipients) }) {
			recipientSets = append(recipientSets, f.Recipients)
		}
	}
	if len(recipientSets) == 0 {
		b.Fatal("the plan encrypts no file: the floor would leave out the wraps")
	}
	hashes := func() {
		for _, f := range p.Files {
			sha256.Sum256(body(f.Data))
		}
	}
	dataKeys := func() {
		keys := &sops.DataKeys{}
		for _, r := range recipientSets {
			key, err := keys.For(r)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := sops.Encrypt([]byte("k: v\n"), sops.EncryptOptions{Recipients: r, Key: key}); err != nil {
				b.Fatal(err)
			}
		}
	}
	wraps := 0
	for _, r := range recipientSets {
		wraps += len(r)
	}
	b.Run("hashes", func(b *testing.B) {
		for b.Loop() {
			hashes()
		}
		b.ReportMetric(float64(hashed), "bytes-hashed/plan")
	})
	b.Run("data-keys", func(b *testing.B) {
		for b.Loop() {
			dataKeys()
		}
		b.ReportMetric(float64(wraps), "wraps/plan")
	})
	b.Run("both", func(b *testing.B) {
		for b.Loop() {
			hashes()
			dataKeys()
		}
	})
}

// BenchmarkPlanSharedKeys is BenchmarkPlan as render plans each cluster of
// a fleet: the data keys, one per recipient set, are made and wrapped once
// for the whole render, so a plan pays no X25519 wrap of its own, and each
// plan is released once done with (render releases it once written), so
// the next writes its files into the same memory.
func BenchmarkPlanSharedKeys(b *testing.B) {
	f := loadConfig(b, "../../testdata/fixture/.k8s-dev-config.yaml")
	keys := &sops.DataKeys{}
	if _, err := Build(f, Options{AllowPlaintextSecrets: true, DataKeys: keys}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := Build(f, Options{AllowPlaintextSecrets: true, DataKeys: keys})
		if err != nil {
			b.Fatal(err)
		}
		p.Release()
	}
}

// BenchmarkPlanRerender is BenchmarkPlan for a re-render: the overlay on
// disk already holds the encrypted files, so a secret whose seal holds
// keeps its bytes and is not encrypted again (the steady state of a
// GitOps repository).
func BenchmarkPlanRerender(b *testing.B) {
	const cfg = "../../testdata/fixture/.k8s-dev-config.yaml"
	repo := b.TempDir()
	if err := writePlan(repo, plan(b, cfg), WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	f := loadConfig(b, cfg)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(f, Options{Repo: repo}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanPlaintext is BenchmarkPlan without sops: the secret files
// stay plaintext, so it measures planning without the age and AES work of
// encrypting them.
func BenchmarkPlanPlaintext(b *testing.B) {
	f := loadConfig(b, "../../testdata/fixture/.k8s-dev-config.yaml")
	f.Config.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(f, Options{AllowPlaintextSecrets: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender plans and writes the five fixture clusters into an empty repository.
func BenchmarkRender(b *testing.B) {
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	var plans []*Plan
	for _, n := range names {
		plans = append(plans, plan(b, n))
	}
	b.ReportAllocs()
	files, size := 0, 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		repo := filepath.Join(b.TempDir(), fmt.Sprint(i))
		b.StartTimer()
		for _, n := range names {
			p, err := Build(loadConfig(b, n), Options{AllowPlaintextSecrets: true})
			if err != nil {
				b.Fatal(err)
			}
			changes, err := Diff(repo, p, WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := Apply(repo, p, changes); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, p := range plans {
		files += len(p.Files)
		for _, f := range p.Files {
			size += len(f.Data)
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(files)/sec, "files/s")
	b.ReportMetric(float64(size)/sec, "bytes/s")
}

// BenchmarkPlanPlaintextCold is BenchmarkPlanPlaintext without the
// process's kustomization cache, which BenchmarkPlan's later iterations
// hit: the cost of a one-off plan, whose kustomizations are all parsed.
func BenchmarkPlanPlaintextCold(b *testing.B) {
	f := loadConfig(b, "../../testdata/fixture/.k8s-dev-config.yaml")
	f.Config.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false
	b.ReportAllocs()
	for b.Loop() {
		kustomizationsMu.Lock()
		clear(kustomizations)
		kustomizationsMu.Unlock()
		if _, err := Build(f, Options{AllowPlaintextSecrets: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPlanAllocations holds the plan BenchmarkPlan measures (the k8s-dev
// fixture cluster, its 17 Secrets encrypted) to the compiled-templates
// issue's bound of 1,500 allocations. A count, not a time: it is the same
// on every machine.
func TestPlanAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	f := loadConfig(t, "../../testdata/fixture/.k8s-dev-config.yaml")
	n := testing.AllocsPerRun(50, func() {
		if _, err := Build(f, Options{AllowPlaintextSecrets: true}); err != nil {
			t.Fatal(err)
		}
	})
	if n > 1500 {
		t.Errorf("planning k8s-dev takes %.0f allocations, over the bound of 1,500", n)
	}
	t.Logf("%.0f allocations per plan", n)
}
