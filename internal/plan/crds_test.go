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

// TestChartCRDsFollowTheChart: a chart's crds/ would stay at the first
// install's version (and a CRD another chart installed first would stay
// that chart's), so the new fields of every later release would be pruned
// by the API server. Every standard unit records where its chart keeps
// CRDs (charts[].crds); the units whose base Flux unit has Helm replace
// them are exactly those whose chart keeps them in crds/ that nothing else
// upgrades, and the patch on that Flux unit, built by kustomize as Flux
// builds it over a HelmRelease with and without install and upgrade
// settings, sets both CRD policies to CreateReplace and keeps the rest.
func TestChartCRDsFollowTheChart(t *testing.T) {
	var flagged, recorded []string
	for _, u := range generated.Units {
		if u.HelmRelease == "" {
			continue // not a standard unit
		}
		i := slices.IndexFunc(u.Charts, func(c catalog.Chart) bool { return c.HelmRelease == u.HelmRelease })
		if i < 0 || u.Charts[i].CRDs == nil {
			t.Errorf("%s: where the chart of HelmRelease %s keeps CRDs is not recorded (charts[].crds in %s)", u.Name, u.HelmRelease, u.Descriptor)
			continue
		}
		if u.Charts[i].CRDs.Replaced() {
			recorded = append(recorded, u.Name)
		}
		for _, fu := range u.FluxUnits {
			if fu.ReplaceCRDs {
				flagged = append(flagged, u.Name)
			}
		}
	}
	if !slices.Equal(flagged, recorded) {
		t.Errorf("units whose base Flux unit replaces CRDs: %v; units whose charts keep CRDs in crds/ that nothing upgrades: %v", flagged, recorded)
	}
	if len(recorded) == 0 {
		t.Error("no chart keeps CRDs in crds/ that nothing upgrades: the patch is not checked")
	}

	plans := corpusPlans(t)
	for _, name := range recorded {
		u := unitNamed(name)
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
				t.Errorf("%s: the built HelmRelease's CRD policies are install %+v, upgrade %+v; want CreateReplace for both", k.Name, hr.Spec.Install, hr.Spec.Upgrade)
				continue
			}
			if settings != "" && (hr.Spec.Install.Remediation == nil || hr.Spec.Install.Remediation.Retries != 3 || hr.Spec.Upgrade.Remediation == nil) {
				t.Errorf("%s: the patch dropped the base's install and upgrade settings: install %+v, upgrade %+v", k.Name, hr.Spec.Install, hr.Spec.Upgrade)
			}
		}
	}
}
