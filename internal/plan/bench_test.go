package plan

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/overlay"
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
		if _, err := Build(f, Options{AllowPlaintextSecrets: true, DataKeys: keys}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanRerender is BenchmarkPlan for a re-render: the overlay on
// disk already holds the encrypted files, so a secret whose seal holds
// keeps its bytes and is not encrypted again (the steady state of a
// GitOps repository).
func BenchmarkPlanRerender(b *testing.B) {
	const cfg = "../../testdata/fixture/.k8s-dev-config.yaml"
	repo := b.TempDir()
	if err := writePlan(repo, plan(b, cfg), overlay.WriteOptions{}); err != nil {
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
			changes, err := overlay.Diff(repo, &p.Tree, overlay.WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := overlay.Apply(repo, &p.Tree, changes); err != nil {
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
