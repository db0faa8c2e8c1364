package fluxsim

import (
	"slices"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	"k8s.io/apimachinery/pkg/types"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/helmvalues"
)

// certManager is a HelmRelease of cert-manager's chart that a build
// produces, and whether its values, as helm-controller merges them, turn
// on its Gateway API support (config.enableGatewayAPI): the gateway-shim
// that issues the certificates a Gateway's annotation asks for, and the
// check at start that stops cert-manager 1.18 when the Gateway API CRDs
// are not there (pkg/controller/context.go). read is false when some of its
// values are not readable here (encrypted, outside the repository, or
// given at a target path).
type certManager struct {
	release    *applied
	gatewayAPI bool
	read       bool
}

// certManagers returns the HelmReleases of the chart cert-manager that
// builds produce.
func (s *sim) certManagers(index map[objKey][]*applied) []certManager {
	var out []certManager
	for _, a := range s.objects {
		if a.Group() != helmGroup || a.Kind != "HelmRelease" {
			continue
		}
		var hr helmv2.HelmReleaseSpec
		if decode(a.Body, &hr) != nil || hr.Chart == nil || hr.Chart.Spec.Chart != "cert-manager" {
			continue
		}
		values, read := s.releaseValues(a, &hr, index)
		config, _ := values["config"].(map[string]any)
		on, _ := config["enableGatewayAPI"].(bool)
		out = append(out, certManager{a, on, read})
	}
	return out
}

// releaseValues merges HelmRelease a's values as helm-controller does:
// each valuesFrom in order, then spec.values (helmvalues.Merge). read is
// false when some part could not be read here.
func (s *sim) releaseValues(a *applied, hr *helmv2.HelmReleaseSpec, index map[objKey][]*applied) (values map[string]any, read bool) {
	values, read = map[string]any{}, true
	for _, v := range hr.ValuesFrom {
		found := index[objKey{"", v.Kind, a.ns, v.Name}]
		if len(found) == 0 {
			// helm-controller skips an optional reference it does not find;
			// a Secret the config names as existing it reads, but not here.
			if !v.Optional || v.Kind == "Secret" && slices.Contains(s.c.ExistingSecrets, types.NamespacedName{Namespace: a.ns, Name: v.Name}) {
				read = false
			}
			continue
		}
		data, ok, err := valuesData(v.Kind, found[0].Body, v.GetValuesKey())
		_, encrypted := found[0].Body["sops"]
		var m map[string]any
		if !ok || err != nil || encrypted || v.TargetPath != "" || sigsyaml.Unmarshal(data, &m) != nil {
			read = false
			continue
		}
		values = helmvalues.Merge(values, m)
	}
	if hr.Values != nil {
		var m map[string]any
		if sigsyaml.Unmarshal(hr.Values.Raw, &m) != nil {
			return values, false
		}
		values = helmvalues.Merge(values, m)
	}
	return values, read
}

// shimOff reports, for a Gateway asking cert-manager for its listeners'
// certificates, the cert-manager HelmReleases whose values turn its
// Gateway API support off, when every cert-manager a build produces does
// so; none (and no finding) when there is no cert-manager to judge by.
func shimOff(cms []certManager) []string {
	var off []string
	for _, cm := range cms {
		if cm.gatewayAPI || !cm.read {
			return nil
		}
		off = append(off, cm.release.key)
	}
	return off
}

// checkCertManagerOrder reports a cert-manager whose Gateway API support is
// on but whose Flux unit does not follow the unit installing the Gateway
// API CRDs: the two race, and cert-manager stops at start while the CRDs
// are not there, crash-looping until helm-controller gives the release up.
// With no unit installing them, the cluster must have them from elsewhere
// (info).
func (s *sim) checkCertManagerOrder(cms []certManager) {
	providers := s.crdProviders()[gatewayGroup]
	for _, cm := range cms {
		u := cm.release.unit
		if !cm.gatewayAPI || u == nil {
			continue
		}
		if len(providers) == 0 {
			s.info(u.name(), cm.release.File, "HelmRelease %s: cert-manager's Gateway API support is on (config.enableGatewayAPI), and no Flux unit installs the Gateway API CRDs: cert-manager stops at start unless the cluster has them from elsewhere", cm.release.key)
			continue
		}
		if follows(u, s.dependencies(u), providers) {
			continue
		}
		s.finding(u.name(), cm.release.File, "HelmRelease %s: cert-manager's Gateway API support is on (config.enableGatewayAPI), and cert-manager stops at start while the Gateway API CRDs are not there, but %s, which installs them, is not in %s's dependsOn (directly or transitively): cert-manager may crash-loop until helm-controller gives the release up",
			cm.release.key, s.unitNames(providers), u.name())
	}
}
