package render

import (
	"slices"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/zz_generated"
)

// chartCRDs are the units whose chart, at the version base 2026.01 pins,
// ships CRDs in a crds/ directory (its own or a subchart's), read off the
// charts' sources: Helm installs those only where no CRD of the name
// exists, and never upgrades them. Charts whose CRDs are templates
// (cert-manager, metallb's and kyverno's crds subcharts, longhorn, istio's
// base) upgrade them with the release; velero's chart does with a hook job
// (upgradeCRDs, on in the base's values); postgres-operator updates its own
// at start (enable_crd_registration).
var chartCRDs = map[string]string{
	"gateway-api":              "gateway-helm (the base follows its latest build): charts/gateway-helm/charts/crds/crds/",
	"kafka-cluster":            "strimzi-kafka-operator 0.50.0: packaging/helm-charts/helm3/strimzi-kafka-operator/crds/",
	"kube-prometheus-stack":    "kube-prometheus-stack 77.6.0: charts/kube-prometheus-stack/charts/crds/crds/",
	"mimir":                    "mimir-distributed 6.0.3, its subchart rollout-operator 0.37.1: charts/rollout-operator/crds/",
	"opentelemetry-kube-stack": "opentelemetry-kube-stack 0.11.1: charts/opentelemetry-kube-stack/charts/otel-crds/crds/",
	"sealed-secrets":           "sealed-secrets 2.17.3: helm/sealed-secrets/crds/",
}

// TestChartCRDsFollowTheChart: a chart's crds/ would stay at the first
// install's version (and a CRD another chart installed first would stay
// that chart's), so the new fields of every later release would be pruned
// by the API server. The units whose charts ship crds/ are exactly those
// whose descriptor says replace_crds, and the patch on their base Flux unit,
// built by kustomize as Flux builds it over a HelmRelease with and without
// install and upgrade settings, sets both CRD policies to CreateReplace
// and keeps the rest.
func TestChartCRDsFollowTheChart(t *testing.T) {
	var flagged []string
	for _, u := range zz_generated.Units {
		for _, fu := range u.FluxUnits {
			if fu.ReplaceCRDs {
				flagged = append(flagged, u.Name)
			}
		}
	}
	slices.Sort(flagged)
	recorded := make([]string, 0, len(chartCRDs))
	for u := range chartCRDs {
		recorded = append(recorded, u)
	}
	slices.Sort(recorded)
	if !slices.Equal(flagged, recorded) {
		t.Errorf("units with replace_crds: %v; units whose charts ship crds/: %v", flagged, recorded)
	}

	plans := corpusPlans(t)
	for _, name := range recorded {
		u := zz_generated.Units[slices.IndexFunc(zz_generated.Units, func(u catalog.Unit) bool { return u.Name == name })]
		// The first corpus plan that renders the unit.
		i := slices.IndexFunc(plans, func(p *Plan) bool { return hasFile(p, "services/fluxcd/"+name+"-base.yaml") })
		if i < 0 {
			t.Errorf("no corpus plan renders %s", name)
			continue
		}
		var k kustomizev1.Kustomization
		if err := sigsyaml.Unmarshal([]byte(fileText(t, plans[i], "services/fluxcd/"+name+"-base.yaml")), &k); err != nil {
			t.Fatal(err)
		}
		at := strings.TrimPrefix(k.Spec.Path, "./")
		for _, settings := range []string{
			"  install:\n    remediation: {retries: 3}\n  upgrade:\n    remediation: {retries: 0}\n",
			"",
		} {
			tree := fluxbuild.Tree{
				at + "/kustomization.yaml": []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [helmrelease.yaml]\n"),
				at + "/helmrelease.yaml": []byte("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + u.HelmRelease + ", namespace: " + u.Namespace + "}\nspec:\n" + settings +
					"  chart: {spec: {chart: " + u.HelmRelease + ", version: 1.0.0, sourceRef: {kind: HelmRepository, name: charts}}}\n"),
			}
			hr := buildRelease(t, tree, at, &k)
			if hr.Spec.Install == nil || hr.Spec.Install.CRDs != helmv2.CreateReplace || hr.Spec.Upgrade == nil || hr.Spec.Upgrade.CRDs != helmv2.CreateReplace {
				t.Errorf("%s (%s): the built HelmRelease's CRD policies are install %+v, upgrade %+v; want CreateReplace for both", k.Name, chartCRDs[name], hr.Spec.Install, hr.Spec.Upgrade)
				continue
			}
			if settings != "" && (hr.Spec.Install.Remediation == nil || hr.Spec.Install.Remediation.Retries != 3 || hr.Spec.Upgrade.Remediation == nil) {
				t.Errorf("%s: the patch dropped the base's install and upgrade settings: install %+v, upgrade %+v", k.Name, hr.Spec.Install, hr.Spec.Upgrade)
			}
		}
	}
}
