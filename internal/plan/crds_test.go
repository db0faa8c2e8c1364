package plan

import (
	"slices"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// chartCRD is where a standard unit's chart keeps CRDs, read off its
// sources at the version base 2026.01 pins (a subchart's counting when the
// base's values turn it on), and what keeps them current.
type chartCRD struct {
	where    string // "" when the chart installs no CRDs
	upgrades string // what upgrades them: "" when Helm installs them from crds/ once and never again
}

// chartCRDs are every standard unit's chartCRD: a unit whose chart keeps
// CRDs in crds/ that nothing upgrades must say replace_crds, and a new
// standard unit needs its chart read for them.
var chartCRDs = map[string]chartCRD{
	"alert-proxy":              {}, // rackerlabs/alert-proxy helm/ at 86b254a
	"cert-manager":             {"templates, generated from deploy/crds (crds.enabled, on in the override)", "Helm, with the release"},
	"gateway-api":              {where: "gateway-helm (the base follows its latest build): charts/gateway-helm/charts/crds/crds/"},
	"harbor":                   {}, // harbor 1.17.2
	"headlamp":                 {}, // headlamp 0.35.0
	"kafka-cluster":            {where: "strimzi-kafka-operator 0.50.0: packaging/helm-charts/helm3/strimzi-kafka-operator/crds/"},
	"kube-prometheus-stack":    {where: "kube-prometheus-stack 77.6.0: charts/kube-prometheus-stack/charts/crds/crds/"},
	"kyverno":                  {"kyverno 3.6.0: charts/kyverno/charts/crds/templates/", "Helm, with the release"},
	"loki":                     {}, // loki 6.45.2: its minio, rollout-operator and grafana-agent-operator subcharts are off in the base's values
	"longhorn":                 {"longhorn 1.11.0: chart/templates/crds.yaml", "Helm, with the release"},
	"metallb":                  {"metallb 0.15.2: charts/metallb/charts/crds/templates/crds.yaml", "Helm, with the release"},
	"mimir":                    {where: "mimir-distributed 6.0.3, its subchart rollout-operator 0.37.1 (rollout_operator.enabled, on in the base's values): charts/rollout-operator/crds/"},
	"openstack-ccm":            {}, // openstack-cloud-controller-manager 2.33.1
	"openstack-csi":            {}, // openstack-cinder-csi 2.33.1
	"opentelemetry-kube-stack": {where: "opentelemetry-kube-stack 0.11.1: charts/opentelemetry-kube-stack/charts/otel-crds/crds/ (the prometheus-crds subchart is off in the override)"},
	"postgres-operator":        {"postgres-operator 1.14.0: charts/postgres-operator/crds/", "the operator, at start (enable_crd_registration, on in the base's values: pkg/controller/util.go, createOperatorCRD patches a CRD that is there)"},
	"rbac-manager":             {"rbac-manager 1.21.1: stable/rbac-manager/templates/customresourcedefinition.yaml", "Helm, with the release"},
	"sealed-secrets":           {where: "sealed-secrets 2.17.3: helm/sealed-secrets/crds/"},
	"tempo":                    {}, // tempo-distributed 1.55.0: its minio, rollout-operator and grafana-agent-operator subcharts are off in the base's values
	"velero":                   {"velero 10.1.1: charts/velero/crds/", "the chart's hook job templates/upgrade-crds (upgradeCRDs, on in the base's values)"},
	"vsphere-csi":              {}, // vsphere-csi 3.8.1: its snapshot-controller subchart is off in the base's values
}

// TestChartCRDsFollowTheChart: a chart's crds/ would stay at the first
// install's version (and a CRD another chart installed first would stay
// that chart's), so the new fields of every later release would be pruned
// by the API server. Every standard unit is in chartCRDs; those whose
// charts keep CRDs in crds/ that nothing else upgrades are exactly those
// whose descriptor says replace_crds, and the patch on their base Flux unit,
// built by kustomize as Flux builds it over a HelmRelease with and without
// install and upgrade settings, sets both CRD policies to CreateReplace
// and keeps the rest.
func TestChartCRDsFollowTheChart(t *testing.T) {
	var flagged, recorded []string
	for _, u := range generated.Units {
		if u.HelmRelease == "" {
			continue // not a standard unit
		}
		c, ok := chartCRDs[u.Name]
		if !ok {
			t.Errorf("%s: where its chart keeps CRDs is not recorded in chartCRDs", u.Name)
		}
		if c.where != "" && c.upgrades == "" {
			recorded = append(recorded, u.Name)
		}
		for _, fu := range u.FluxUnits {
			if fu.ReplaceCRDs {
				flagged = append(flagged, u.Name)
			}
		}
	}
	if !slices.Equal(flagged, recorded) {
		t.Errorf("units with replace_crds: %v; units whose charts keep CRDs in crds/ that nothing upgrades: %v", flagged, recorded)
	}

	plans := corpusPlans(t)
	for _, name := range recorded {
		u := generated.Units[slices.IndexFunc(generated.Units, func(u catalog.Unit) bool { return u.Name == name })]
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
