package e2e

import "testing"

// TestBenignStates holds the states a first reconciliation waits through
// apart from real failures.
func TestBenignStates(t *testing.T) {
	for state, want := range map[string]bool{
		"DependencyNotReady: dependency 'flux-system/sources' is not ready":                        true,
		"ArtifactFailed: Source 'GitRepository/opencenter-kyverno' not found":                      true,
		`ArtifactFailed: GitRepository.source.toolkit.fluxcd.io "opencenter-metallb" not found`:    true,
		"SourceNotReady: HelmChart 'cert-manager/cert-manager-cert-manager' is not ready":          true,
		"ValuesError: could not find secret 'cert-manager/cert-manager-values-base'":               false,
		"Progressing: Reconciliation in progress":                                                  true,
		"BuildFailed: kustomize build failed: accumulating resources":                              false,
		"ReconciliationFailed: IPAddressPool/metallb-system/default dry-run failed":                false,
		"InstallFailed: Helm install failed for release cert-manager/cert-manager":                 false,
		"HealthCheckFailed: timeout waiting for: [HelmRelease/cert-manager/cert-manager status]":   false,
		"ArtifactFailed: kustomization path not found: stat applications/overlays/x: no such file": false,
	} {
		if got := benign.MatchString(state); got != want {
			t.Errorf("benign(%q) = %v, want %v", state, got, want)
		}
	}
}

// TestVersionFor holds the version a stand-in chart gets for what a
// HelmRelease asks.
func TestVersionFor(t *testing.T) {
	for asked, want := range map[string]string{
		"v1.18.2":       "v1.18.2",
		"1.17.2":        "1.17.2",
		"4.0.x":         "4.0.0",
		"~3.29.0":       "3.29.0",
		"v0.0.0-latest": "v0.0.0-latest",
		"":              "0.0.1",
	} {
		if got := versionFor(asked); got != want {
			t.Errorf("versionFor(%q) = %q, want %q", asked, got, want)
		}
	}
}
