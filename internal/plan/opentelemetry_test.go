package plan

import "testing"

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
	type values struct {
		Operator struct {
			AdmissionWebhooks struct {
				CertManager struct {
					Enabled *bool `yaml:"enabled"`
				} `yaml:"certManager"`
				AutoGenerateCert struct {
					Enabled *bool `yaml:"enabled"`
				} `yaml:"autoGenerateCert"`
			} `yaml:"admissionWebhooks"`
		} `yaml:"opentelemetry-operator"`
	}
	for p, v := range corpusValues[values](t, "opentelemetry-kube-stack") {
		hooks := v.Operator.AdmissionWebhooks
		on := chartAsksCertManager
		if hooks.CertManager.Enabled != nil {
			on = *hooks.CertManager.Enabled
		}
		seen[on]++
		units := fluxUnits(t, p)
		switch {
		case on && !external(p, "cert-manager") && (units["cert-manager-base"] == nil || !closure(units, "opentelemetry-kube-stack-base")["cert-manager-base"]):
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
// and ScrapeConfig CRDs of Prometheus Operator 0.74.0 when
// crds.installPrometheus is on (its prometheus-crds subchart; Chart.yaml's
// condition crds.install,crds.installPrometheus, and values.yaml and the
// base's values set the second, true), kube-prometheus-stack 77.6.0 those
// of 0.85.0. Under helm-controller's default policy (Create; upgrades skip
// CRDs) whichever installed first would stay; with replace_crds on both
// units, each release puts its own back. Either way the older schemas, when
// in place, make the API server prune the newer fields
// (fallbackScrapeProtocol, selectorMechanism ...) from every monitor.
// So over the corpus the overlay turns installPrometheus off; and where
// both are on, opentelemetry-kube-stack-base follows
// kube-prometheus-stack-base, since the operator looks for those CRDs once,
// at start (opentelemetry-operator v0.136.0 main.go: without them it leaves
// the Prometheus types out until it restarts).
func TestOpenTelemetryLeavesPrometheusCRDsToKubePrometheusStack(t *testing.T) {
	const chartInstallsPrometheusCRDs = true // chart and base values alike
	both, plans := 0, 0
	type values struct {
		CRDs struct {
			Install           *bool `yaml:"install"`
			InstallPrometheus *bool `yaml:"installPrometheus"`
		} `yaml:"crds"`
	}
	for p, v := range corpusValues[values](t, "opentelemetry-kube-stack") {
		plans++
		on := chartInstallsPrometheusCRDs
		switch { // Helm's condition: the first of the paths that is set
		case v.CRDs.Install != nil:
			on = *v.CRDs.Install
		case v.CRDs.InstallPrometheus != nil:
			on = *v.CRDs.InstallPrometheus
		}
		if on {
			t.Errorf("%s: opentelemetry-kube-stack installs its Prometheus Operator 0.74 CRDs over kube-prometheus-stack's 0.85 ones", p.Config)
		}
		units := fluxUnits(t, p)
		if units["kube-prometheus-stack-base"] == nil {
			continue
		}
		both++
		if !closure(units, "opentelemetry-kube-stack-base")["kube-prometheus-stack-base"] {
			t.Errorf("%s: opentelemetry-kube-stack-base does not follow kube-prometheus-stack-base, so the OpenTelemetry operator may start before the Prometheus Operator's CRDs are there, and never use them", p.Config)
		}
	}
	if both == 0 {
		t.Error("no corpus plan has both opentelemetry-kube-stack and kube-prometheus-stack")
	}
	t.Logf("%d plans with opentelemetry-kube-stack, %d with kube-prometheus-stack too", plans, both)
}
