package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestFixtureOnRealFlux runs every fixture cluster through the harness
// (see doc.go). It needs the components make e2e builds.
func TestFixtureOnRealFlux(t *testing.T) {
	if os.Getenv("OPENCENTER_E2E") == "" {
		t.Skip("run by make e2e (OPENCENTER_E2E=1): it needs etcd, kube-apiserver and the Flux controllers built into bin/e2e")
	}
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Dir(filepath.Dir(file))
	bin := os.Getenv("OPENCENTER_E2E_BIN")
	if bin == "" {
		bin = filepath.Join(repo, "bin")
	}
	out := os.Getenv("OPENCENTER_E2E_OUT")
	if out == "" {
		out = filepath.Join(repo, "out", "e2e")
	}
	start := time.Now()
	env, err := Setup(repo, bin, out, os.Getenv("OPENCENTER_E2E_BASE"))
	if env != nil {
		defer env.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	configs, err := filepath.Glob(filepath.Join(repo, "testdata", "fixture", ".k8s-*-config.yaml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no fixture configs (%v)", err)
	}
	// Clusters run side by side, OPENCENTER_E2E_PARALLEL (2) at a time:
	// one cluster keeps about one core busy.
	parallel := 2
	if v := os.Getenv("OPENCENTER_E2E_PARALLEL"); v != "" {
		if _, err := fmt.Sscan(v, &parallel); err != nil || parallel < 1 {
			t.Fatalf("OPENCENTER_E2E_PARALLEL=%q: not a positive number", v)
		}
	}
	slots := make(chan struct{}, parallel)
	results := make([]*Result, len(configs))
	t.Run("clusters", func(t *testing.T) {
		for i, cfg := range configs {
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(cfg), "."), "-config.yaml")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				slots <- struct{}{}
				defer func() { <-slots }()
				res, err := env.RunCluster(context.Background(), cfg, t.Logf)
				results[i] = res
				t.Log("\n" + resultText(res))
				if err != nil {
					t.Fatalf("%v (logs in %s)", err, filepath.Join(out, "logs", name))
				}
				for _, f := range res.Failures {
					t.Error(f)
				}
			})
		}
	})
	var report strings.Builder
	fmt.Fprintf(&report, "base repository: %s\n", env.Base)
	for _, res := range results {
		report.WriteString(resultText(res))
	}
	for _, n := range env.Notes() {
		fmt.Fprintf(&report, "note: %s\n", n)
	}
	fmt.Fprintf(&report, "total: %s\n", time.Since(start).Round(time.Second))
	if err := os.WriteFile(filepath.Join(out, "report.txt"), []byte(report.String()), 0o644); err != nil {
		t.Error(err)
	}
	t.Log("\n" + report.String())
	// The clusters' state (etcd data, artifacts, repositories) is about
	// 100 MB a cluster: kept to look at when the run failed, else removed.
	// The logs stay.
	if !t.Failed() {
		os.RemoveAll(filepath.Join(out, "work"))
	}
}

func resultText(r *Result) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): Kustomizations Ready %d/%d, HelmReleases installed %d/%d, Secrets decrypted %d/%d, config secret values in Secrets %d/%d, dependency edges ordered %d (%d by Ready order only), %d failures\n",
		r.Cluster, r.Elapsed.Round(time.Second), r.Ready, r.Total, r.Installed, r.HelmReleases, r.Decrypted, r.Encrypted,
		r.ValuesFound, r.ConfigValues, r.OrderChecked, r.OrderByReady, len(r.Failures))
	if r.Verify != "" {
		fmt.Fprintf(&b, "  verify: %s\n", r.Verify)
	}
	for _, f := range r.VerifyFindings {
		fmt.Fprintf(&b, "  verify finding: %s\n", f)
	}
	for _, e := range r.Exceptions {
		fmt.Fprintf(&b, "  exception: %s\n", e)
	}
	fmt.Fprintf(&b, "  inventory entries compared with fluxbuild: %d, model differences: %d\n", r.InventoryCompared, len(r.ModelDiffs))
	for _, f := range r.FailedFirst {
		fmt.Fprintf(&b, "  failed before Ready (then Ready on a retry): %s\n", f)
	}
	for _, d := range r.ModelDiffs {
		fmt.Fprintf(&b, "  model difference: %s\n", d)
	}
	if r.Day2 != "" {
		fmt.Fprintf(&b, "  day 2: %s\n", r.Day2)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "  FAIL: %s\n", f)
	}
	return b.String()
}
