package render

import (
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
		units := fluxUnits(t, p)
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

// TestOpenTelemetryLeavesPrometheusCRDsToKubePrometheusStack:
// opentelemetry-kube-stack 0.11.1 installs ServiceMonitor, PodMonitor, Probe
// and ScrapeConfig CRDs of Prometheus Operator 0.74.0 (its prometheus-crds
// subchart, on by crds.installPrometheus in the chart's and the base's
// values), kube-prometheus-stack 77.6.0 those of 0.85.0, and Helm installs a
// chart's crds/ only where no CRD of the name is there (helm-controller's
// default policy, Create; upgrades skip CRDs): installed first, the older
// schemas would stay, and the API server would prune the newer fields
// (fallbackScrapeProtocol, selectorMechanism ...) from every monitor. Over
// the corpus: where both are on, opentelemetry-kube-stack-base follows
// kube-prometheus-stack-base.
func TestOpenTelemetryLeavesPrometheusCRDsToKubePrometheusStack(t *testing.T) {
	both := 0
	for _, p := range corpusPlans(t) {
		units := fluxUnits(t, p)
		if units["opentelemetry-kube-stack-base"] == nil || units["kube-prometheus-stack-base"] == nil {
			continue
		}
		both++
		if !closure(units, "opentelemetry-kube-stack-base")["kube-prometheus-stack-base"] {
			t.Errorf("%s: opentelemetry-kube-stack-base does not follow kube-prometheus-stack-base, so its Prometheus Operator 0.74 CRDs may be installed first and kept", p.Config)
		}
	}
	if both == 0 {
		t.Error("no corpus plan has both opentelemetry-kube-stack and kube-prometheus-stack")
	}
	t.Logf("%d plans with both", both)
}
