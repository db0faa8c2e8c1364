package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// TestExistingSecrets: the simulation is told of every Secret the config
// names as existing for an active unit, in that unit's namespace (the
// certificate of a gateway without an issuer too), and of none for a
// service that is off.
func TestExistingSecrets(t *testing.T) {
	name := filepath.Join(t.TempDir(), ".k8s-test-config.yaml")
	cfg := `schema_version: 1
opencenter:
  meta: {name: k8s-test, organization: Example Org, env: dev}
  cluster: {cluster_name: k8s-test, base_domain: test.example.com}
  infrastructure: {provider: kind}
  gitops:
    repository: {url: "ssh://git@github.com/example/platform-gitops.git", branch: main}
    base_repo: {release: "2026.01"}
  services:
    cert-manager: {enabled: true}
    gateway-api: {enabled: true}
    gateway: {enabled: true, tls_secret_name: edge-tls}
    kube-prometheus-stack: {enabled: true, grafana_existing_secret: grafana-login}
    weave-gitops: {enabled: true, admin_existing_secret: cluster-user-auth}
    loki: {enabled: false, existing_secret: loki-store}
`
	if err := os.WriteFile(name, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(name, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Build(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(ExistingSecrets(plan, f.Config))
	if want := "[envoy-gateway-system/edge-tls observability/grafana-login flux-system/cluster-user-auth]"; got != want {
		t.Errorf("existing Secrets %s, want %s", got, want)
	}
}
