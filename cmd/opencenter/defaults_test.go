package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnabledIsEnough: a config whose only service is cert-manager, with
// nothing but enabled: true, validates and renders (cert-manager without a
// ClusterIssuer); so does a gateway with a self-signed issuer, which gets
// its listeners from base_domain.
func TestEnabledIsEnough(t *testing.T) {
	const head = "opencenter:\n  meta: {name: %s}\n  cluster: {cluster_name: %s, base_domain: lab.example.com}\n  infrastructure: {provider: kind}\n  gitops:\n    repository: {url: 'https://git.example.com/gitops.git'}\n  services:\n"
	cases := []struct {
		cluster, services string
		want, absent      []string
	}{
		{"k8s-certs", "    cert-manager: {enabled: true}\n",
			[]string{"services/fluxcd/cert-manager-base.yaml", "services/fluxcd/cert-manager-override.yaml", "services/cert-manager/helm-values/override-values.yaml"},
			[]string{"services/fluxcd/cert-manager-issuers.yaml", "services/cert-manager/issuers"}},
		{"k8s-edge", "    cert-manager: {enabled: true, issuer: selfsigned}\n    gateway-api: {enabled: true}\n    gateway: {enabled: true}\n",
			[]string{"services/cert-manager/issuers/cluster-issuer.yaml", "services/gateway/gateway.yaml"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.cluster, func(t *testing.T) {
			repo := t.TempDir()
			cfg := filepath.Join(repo, "."+tc.cluster+"-config.yaml")
			text := strings.ReplaceAll(head, "%s", tc.cluster) + tc.services
			if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, stdout, stderr := runCLI("validate", "--repo", repo); code != 0 || !strings.Contains(stdout, ": valid\n") {
				t.Fatalf("validate: exit %d\n%s%s", code, stdout, stderr)
			}
			if code, stdout, stderr := runCLI("render", "--repo", repo); code != 0 || stderr != "" {
				t.Fatalf("render: exit %d\n%s%s", code, stdout, stderr)
			}
			overlay := filepath.Join(repo, "applications/overlays", tc.cluster)
			for _, p := range tc.want {
				if _, err := os.Stat(filepath.Join(overlay, p)); err != nil {
					t.Errorf("%s is not rendered", p)
				}
			}
			for _, p := range tc.absent {
				if _, err := os.Stat(filepath.Join(overlay, p)); err == nil {
					t.Errorf("%s is rendered", p)
				}
			}
			if code, stdout, _ := runCLI("render", "--check", "--repo", repo); code != 0 || stdout != "" {
				t.Errorf("render --check after render: exit %d\n%s", code, stdout)
			}
		})
	}
}
