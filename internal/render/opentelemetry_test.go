package render

import (
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// chartAsksCertManager is where the OpenTelemetry operator's webhook
// certificate comes from when neither the base's values nor the overlay's
// say: opentelemetry-operator 0.97.1 (opentelemetry-kube-stack 0.11.1's
// subchart), values.yaml, admissionWebhooks.certManager.enabled true (line
// 299); the base's values-v0.11.1.yaml sets only admissionWebhooks.failurePolicy.
const chartAsksCertManager = true

// TestOpenTelemetryWebhookCertificate: with its certManager option on, the
// operator's chart renders a cert-manager.io Certificate and Issuer
// (templates/certmanager.yaml, no .Capabilities guard), and Helm refuses to
// install a release whose kinds the cluster does not know: the HelmRelease
// fails its three install retries and stops. Over the corpus: where the
// option is on, as the chart, the base and the overlay merge it,
// opentelemetry-kube-stack-base follows cert-manager-base, which installs
// those CRDs; elsewhere Helm makes the certificate.
func TestOpenTelemetryWebhookCertificate(t *testing.T) {
	seen := map[bool]int{}
	for _, p := range corpusPlans(t) {
		values, ok := p.File("services/opentelemetry-kube-stack/helm-values/override-values.yaml")
		if !ok {
			continue
		}
		var v struct {
			Operator struct {
				AdmissionWebhooks struct {
					CertManager struct {
						Enabled *bool `json:"enabled"`
					} `json:"certManager"`
					AutoGenerateCert struct {
						Enabled *bool `json:"enabled"`
					} `json:"autoGenerateCert"`
				} `json:"admissionWebhooks"`
			} `json:"opentelemetry-operator"`
		}
		if err := sigsyaml.Unmarshal(values.Data, &v); err != nil {
			t.Fatalf("%s: opentelemetry-kube-stack's values: %v", p.Config, err)
		}
		hooks := v.Operator.AdmissionWebhooks
		on := chartAsksCertManager
		if hooks.CertManager.Enabled != nil {
			on = *hooks.CertManager.Enabled
		}
		seen[on]++
		units := map[string]map[string]any{}
		for _, f := range p.Files {
			if strings.HasPrefix(f.Path, "services/fluxcd/") {
				for _, obj := range documents(t, f.Path, f.Data) {
					units[str(obj, "metadata", "name")] = obj
				}
			}
		}
		switch {
		case on && (units["cert-manager-base"] == nil || !closure(units, "opentelemetry-kube-stack-base")["cert-manager-base"]):
			t.Errorf("%s: the OpenTelemetry operator's chart asks cert-manager for its webhook certificate, but opentelemetry-kube-stack-base does not follow cert-manager-base, which installs cert-manager's CRDs", p.Config)
		case !on && (hooks.AutoGenerateCert.Enabled == nil || !*hooks.AutoGenerateCert.Enabled):
			t.Errorf("%s: the OpenTelemetry operator's webhook has no certificate: neither cert-manager nor Helm (autoGenerateCert) makes it", p.Config)
		}
	}
	t.Logf("the OpenTelemetry operator's webhook certificate from cert-manager/Helm: %d/%d plans", seen[true], seen[false])
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("the OpenTelemetry operator's webhook certificate from cert-manager/Helm: %d/%d plans; the corpus should hold both", seen[true], seen[false])
	}
}
