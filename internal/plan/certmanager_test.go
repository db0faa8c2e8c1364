package plan

import "testing"

// baseEnablesGatewayAPI is cert-manager's Gateway API support as the
// base's values set it: openCenter-gitops-base 2026.01,
// applications/base/services/cert-manager/helm-values/values-v1.18.2.yaml,
// config.enableGatewayAPI true (line 224, the file's one document).
const baseEnablesGatewayAPI = true

// TestCertManagerFindsGatewayAPICRDs: cert-manager 1.18.2's controller,
// with its Gateway API support on, stops at start unless the Gateway API
// CRDs are there (pkg/controller/context.go: "the Gateway API CRDs do not
// seem to be present ... Please install the gateway-api CRDs", and the pod
// crash-loops), so a HelmRelease waiting for it would not get ready. Over
// the corpus: where the support is on, as the base's values and the
// overlay's merge, cert-manager-base follows gateway-api-base (Envoy
// Gateway's chart, which bundles those CRDs: charts/gateway-helm/charts/crds);
// elsewhere the overlay turns it off.
func TestCertManagerFindsGatewayAPICRDs(t *testing.T) {
	seen := map[bool]int{}
	type values struct {
		Config struct {
			EnableGatewayAPI *bool `yaml:"enableGatewayAPI"`
		} `yaml:"config"`
	}
	for p, v := range corpusValues[values](t, "cert-manager") {
		on := baseEnablesGatewayAPI
		if v.Config.EnableGatewayAPI != nil {
			on = *v.Config.EnableGatewayAPI
		}
		seen[on]++
		units := fluxUnits(t, p)
		if on && !external(p, "gateway-api") && (units["gateway-api-base"] == nil || !closure(units, "cert-manager-base")["gateway-api-base"]) {
			t.Errorf("%s: cert-manager runs with Gateway API support, but cert-manager-base does not follow gateway-api-base, which installs the Gateway API CRDs", p.Config)
		}
	}
	t.Logf("cert-manager's Gateway API support on/off: %d/%d", seen[true], seen[false])
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("cert-manager's Gateway API support on/off: %d/%d plans; the corpus should hold both", seen[true], seen[false])
	}
}
