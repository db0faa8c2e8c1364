package fluxsim

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// objKey identifies an object in a cluster: two objects with one key are
// one object.
type objKey struct{ group, kind, ns, name string }

func keyOf(a *applied) objKey { return objKey{a.Group(), a.Kind, a.ns, a.Name} }

func (k objKey) String() string {
	if k.ns == "" {
		return k.kind + " " + k.name
	}
	return k.kind + " " + k.ns + "/" + k.name
}

// groupOf returns the API group of an apiVersion.
func groupOf(apiVersion string) string {
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		return g
	}
	return ""
}

// index is what the builds applied, by key.
func (s *sim) index() map[objKey][]*applied {
	index := map[objKey][]*applied{}
	for _, a := range s.objects {
		index[keyOf(a)] = append(index[keyOf(a)], a)
	}
	return index
}

// check runs every check over what the builds applied.
func (s *sim) check() {
	index := s.index()
	s.checkOwners(index)
	s.checkDependsOn()
	s.checkCycles()
	s.checkHealthChecks(index)
	s.checkHelmReleases(index)
	s.checkCRDOrder()
	s.checkNamespaces()
	s.checkSecrets()
	s.checkMetadata()
	s.checkSubscriptions()
	cms := s.certManagers(index)
	s.checkCertManagerOrder(cms)
	s.checkGatewayAPI(index, cms)
}

// checkOwners reports objects applied by two Flux units: each would
// overwrite the other, and pruning either deletes the object.
func (s *sim) checkOwners(index map[objKey][]*applied) {
	for k, as := range index {
		var owners []*applied
		for _, a := range as {
			if a.unit != nil {
				owners = append(owners, a)
			}
		}
		slices.SortFunc(owners, func(a, b *applied) int { return strings.Compare(a.unit.name(), b.unit.name()) })
		for _, a := range owners[min(1, len(owners)):] {
			s.finding(a.unit.name(), a.File, "%s is also applied by %s (%s): one Flux unit must own it",
				k, owners[0].unit.name(), owners[0].File)
		}
	}
}

// checkDependsOn reports dependsOn entries naming no Kustomization: Flux
// waits for them forever.
func (s *sim) checkDependsOn() {
	for _, u := range s.units {
		for _, d := range u.spec.DependsOn {
			key := cmpOr(d.Namespace, u.obj.ns) + "/" + d.Name
			if _, ok := s.units[key]; !ok {
				s.finding(u.name(), u.obj.File, "dependsOn %s: no Kustomization of that name", key)
			}
		}
	}
}

// checkCycles reports dependsOn cycles, once each, on the cycle's first
// unit in name order: every unit in it waits for the others forever.
func (s *sim) checkCycles() {
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var stack []string
	var visit func(key string)
	visit = func(key string) {
		u, ok := s.units[key]
		if !ok || state[key] == done {
			return
		}
		if state[key] == visiting {
			cycle := slices.Clone(stack[slices.Index(stack, key):])
			first := slices.Index(cycle, slices.Min(cycle))
			cycle = append(cycle[first:], cycle[:first]...)
			names := make([]string, 0, len(cycle)+1)
			for _, k := range append(cycle, cycle[0]) {
				names = append(names, s.units[k].name())
			}
			head := s.units[cycle[0]]
			s.finding(head.name(), head.obj.File, "dependsOn cycle %s: Flux waits forever", strings.Join(names, " -> "))
			return
		}
		state[key] = visiting
		stack = append(stack, key)
		for _, d := range u.spec.DependsOn {
			visit(cmpOr(d.Namespace, u.obj.ns) + "/" + d.Name)
		}
		stack = stack[:len(stack)-1]
		state[key] = done
	}
	for _, k := range slices.Sorted(maps.Keys(s.units)) {
		visit(k)
	}
}

// checkHealthChecks reports health checks of built units naming objects no
// build produces: Flux waits for them until the unit times out.
func (s *sim) checkHealthChecks(index map[objKey][]*applied) {
	for _, u := range s.units {
		if u.state != unitBuilt {
			continue
		}
		for _, h := range u.spec.HealthChecks {
			k := objKey{groupOf(h.APIVersion), h.Kind, h.Namespace, h.Name}
			if len(index[k]) == 0 {
				s.finding(u.name(), u.obj.File, "healthChecks: %s (%s): no build produces it", k, h.APIVersion)
			}
		}
	}
}

// checkHelmReleases reports HelmReleases whose values or chart source no
// build puts where helm-controller looks: the HelmRelease's namespace, or
// the namespace its sourceRef names.
func (s *sim) checkHelmReleases(index map[objKey][]*applied) {
	for _, a := range s.objects {
		if a.unit == nil || a.Group() != helmGroup || a.Kind != "HelmRelease" {
			continue
		}
		var hr helmv2.HelmReleaseSpec
		if err := decode(a.Body, &hr); err != nil {
			s.finding(a.unit.name(), a.File, "HelmRelease %s: %v", a.key, err)
			continue
		}
		for _, v := range hr.ValuesFrom {
			s.checkValuesFrom(a, v, index)
		}
		var kind, name, ns string
		if r := hr.ChartRef; r != nil {
			kind, name, ns = r.Kind, r.Name, r.Namespace
		} else if hr.Chart != nil {
			r := hr.Chart.Spec.SourceRef
			kind, name, ns = r.Kind, r.Name, r.Namespace
		}
		if kind != "" {
			k := objKey{sourceGroup, kind, cmpOr(ns, a.ns), name}
			if len(index[k]) == 0 {
				s.finding(a.unit.name(), a.File, "HelmRelease %s: chart sourceRef %s: no build puts it in namespace %s%s",
					a.key, k, k.ns, s.elsewhere(k))
			}
		}
	}
}

// checkValuesFrom reports a valuesFrom reference of HelmRelease a that
// helm-controller cannot resolve, or whose values it cannot read; values
// it reads only in part are info, as the release still installs.
func (s *sim) checkValuesFrom(a *applied, v helmv2.ValuesReference, index map[objKey][]*applied) {
	k := objKey{"", v.Kind, a.ns, v.Name}
	found := index[k]
	if len(found) == 0 {
		if v.Kind == "Secret" && slices.Contains(s.c.ExistingSecrets, types.NamespacedName{Namespace: a.ns, Name: v.Name}) {
			s.info(a.unit.name(), a.File, "HelmRelease %s: valuesFrom Secret %s: the config names it as existing outside the repository; the cluster must have it, with key %s, before the release installs",
				a.key, v.Name, v.GetValuesKey())
			return
		}
		if !v.Optional {
			s.finding(a.unit.name(), a.File, "HelmRelease %s: valuesFrom %s %s: no build produces it in namespace %s%s",
				a.key, v.Kind, v.Name, a.ns, s.elsewhere(k))
		}
		return
	}
	src := found[0]
	at := fmt.Sprintf("HelmRelease %s: valuesFrom %s %s", a.key, v.Kind, v.Name)
	s.checkValuesFirst(a, v, found, at)
	data, ok, err := valuesData(v.Kind, src.Body, v.GetValuesKey())
	_, encrypted := src.Body["sops"]
	switch {
	case !ok:
		// helm-controller fails on a missing key even when the reference is optional.
		s.finding(a.unit.name(), a.File, "%s: no key %s (%s has %s)", at, v.GetValuesKey(), src.File, strings.Join(dataKeys(v.Kind, src.Body), ", "))
		return
	case encrypted, v.TargetPath != "":
		// kustomize-controller decrypts the one, and a target path takes
		// the data as one value: neither is values to read here.
		return
	case err != nil:
		s.finding(s.owner(src), src.File, "%s: %v", at, err)
		return
	}
	if problem, unreadable := valuesProblem(data); unreadable {
		s.finding(s.owner(src), src.File, "%s key %s: %s", at, v.GetValuesKey(), problem)
	} else if problem != "" {
		s.info(s.owner(src), src.File, "%s key %s: %s", at, v.GetValuesKey(), problem)
	}
}

// checkValuesFirst reports values that reach a HelmRelease only after its
// first install: an object of a unit that the HelmRelease's unit neither is
// nor depends on (directly or transitively). Flux reconciles the two in no
// set order, and a unit that waits for the HelmRelease to be ready is
// ready before the other starts. helm-controller then installs without an
// optional reference (it skips one it does not find) and upgrades when the
// values come: what a chart reads only at install (an initial admin
// password, a StatefulSet's volume claim templates, which an upgrade cannot
// change) keeps the first install's values. A required reference fails
// the install until they come; if their unit waits for this one, never.
func (s *sim) checkValuesFirst(a *applied, v helmv2.ValuesReference, found []*applied, at string) {
	deps := s.dependencies(a.unit)
	var later []string
	for _, f := range found {
		if f.unit == nil || f.unit == a.unit || deps[f.unit.obj.key] {
			return
		}
		later = append(later, f.unit.name())
	}
	slices.Sort(later)
	if v.Optional {
		s.finding(a.unit.name(), a.File, "%s (optional) is applied by %s, which %s does not depend on: helm-controller installs the release before those values exist, then upgrades with them, and what the chart reads only at install (an initial password, volume claim templates) keeps the values of that first install",
			at, strings.Join(later, " and "), a.unit.name())
		return
	}
	s.finding(a.unit.name(), a.File, "%s is applied by %s, which %s does not depend on: the install fails until those values exist, and never succeeds if %s waits for this release",
		at, strings.Join(later, " and "), a.unit.name(), strings.Join(later, " and "))
}

// elsewhere names the namespaces where an object of k's kind and name is,
// for a message about it missing from k's namespace.
func (s *sim) elsewhere(k objKey) string {
	var nss []string
	for _, a := range s.objects {
		if a.Group() == k.group && a.Kind == k.kind && a.Name == k.name && a.ns != k.ns && !slices.Contains(nss, a.ns) {
			nss = append(nss, a.ns)
		}
	}
	if len(nss) == 0 {
		return ""
	}
	slices.Sort(nss)
	return " (it is in " + strings.Join(nss, ", ") + ")"
}

// dataKeys lists the keys helm-controller can read values from: a Secret's
// data and stringData, a ConfigMap's data (not its binaryData).
func dataKeys(kind string, body map[string]any) []string {
	fields := []string{"data"}
	if kind == "Secret" {
		fields = append(fields, "stringData")
	}
	var keys []string
	for _, field := range fields {
		m, _ := body[field].(map[string]any)
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// checkCRDOrder reports units applying custom resources before the unit
// that installs their CRDs can be ready: the provider must be the unit
// itself or in its dependsOn, directly or transitively.
func (s *sim) checkCRDOrder() {
	providers := s.crdProviders()
	for _, u := range s.units {
		if u.state != unitBuilt {
			continue
		}
		deps := s.dependencies(u)
		reported := map[string]bool{}
		for _, a := range u.objects {
			g := a.Group()
			ps := providers[g]
			if len(ps) == 0 || reported[g] || follows(u, deps, ps) {
				continue
			}
			reported[g] = true
			s.finding(u.name(), u.obj.File, "applies %s (group %s) but %s, which installs the CRDs of %s, is not in its dependsOn (directly or transitively)",
				keyOf(a), g, s.unitNames(ps), g)
		}
	}
}

// follows reports whether unit u, whose dependencies are deps, is one of
// the units keys or depends on one, directly or transitively.
func follows(u *unit, deps map[string]bool, keys []string) bool {
	return slices.Contains(keys, u.obj.key) || slices.ContainsFunc(keys, func(k string) bool { return deps[k] })
}

// unitNames names the units keys, sorted, as alternatives in a message.
func (s *sim) unitNames(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = s.units[k].name()
	}
	slices.Sort(names)
	return strings.Join(names, " or ")
}

// crdProviders returns, by API group, the keys of the Flux units that
// install its CRDs: the config's providers (through a chart) that the
// cluster has, and the units applying a CustomResourceDefinition.
func (s *sim) crdProviders() map[string][]string {
	providers := map[string][]string{} // group -> unit keys
	addProvider := func(group, key string) {
		if !slices.Contains(providers[group], key) {
			providers[group] = append(providers[group], key)
		}
	}
	for group, names := range s.c.Providers {
		for _, n := range names {
			if _, ok := s.units["flux-system/"+n]; ok {
				addProvider(group, "flux-system/"+n)
			}
		}
	}
	for _, a := range s.objects {
		if a.unit != nil && a.Group() == "apiextensions.k8s.io" && a.Kind == "CustomResourceDefinition" {
			if g, _ := fluxbuild.Field(a.Body, "spec", "group").(string); g != "" {
				addProvider(g, a.unit.obj.key)
			}
		}
	}
	return providers
}

// dependencies returns the keys of every unit u depends on, transitively.
func (s *sim) dependencies(u *unit) map[string]bool {
	seen := map[string]bool{}
	var walk func(u *unit)
	walk = func(u *unit) {
		for _, d := range u.spec.DependsOn {
			key := cmpOr(d.Namespace, u.obj.ns) + "/" + d.Name
			if seen[key] {
				continue
			}
			seen[key] = true
			if dep, ok := s.units[key]; ok {
				walk(dep)
			}
		}
	}
	walk(u)
	return seen
}

// systemNamespaces exist in every cluster Flux runs in (flux-system is
// made by flux bootstrap).
var systemNamespaces = []string{"default", "flux-system", "kube-node-lease", "kube-public", "kube-system"}

// checkNamespaces reports units applying objects into a namespace that no
// build creates, or that a unit creates which is not the applying unit or
// in its dependsOn: the API server refuses objects in a namespace that
// does not exist yet. The namespace a HelmRelease installs its chart into
// (spec.targetNamespace) is held to the same, unless its install creates
// it: helm-controller's install fails in a namespace that does not exist.
// A unit with a dependency that did not build is left out: Flux does not
// apply it, and what the dependency creates is unknown.
func (s *sim) checkNamespaces() {
	creators := map[string][]string{} // namespace -> unit keys
	for _, a := range s.objects {
		if a.unit != nil && a.Group() == "" && a.Kind == "Namespace" && !slices.Contains(creators[a.Name], a.unit.obj.key) {
			creators[a.Name] = append(creators[a.Name], a.unit.obj.key)
		}
	}
	for _, u := range s.units {
		if u.state != unitBuilt {
			continue
		}
		deps := s.dependencies(u)
		if slices.ContainsFunc(slices.Collect(maps.Keys(deps)), func(d string) bool { return s.units[d] == nil || s.units[d].state != unitBuilt }) {
			continue
		}
		reported := map[string]bool{}
		// needs reports ns, which what needs, when it may not exist yet.
		needs := func(ns, what string) {
			cs := creators[ns]
			if ns == "" || reported[ns] || slices.Contains(systemNamespaces, ns) || follows(u, deps, cs) {
				return
			}
			reported[ns] = true
			if len(cs) == 0 {
				s.finding(u.name(), u.obj.File, "%s, but no build creates Namespace %s", what, ns)
				return
			}
			s.finding(u.name(), u.obj.File, "%s, but %s, which creates Namespace %s, is not in its dependsOn (directly or transitively)",
				what, s.unitNames(cs), ns)
		}
		for _, a := range u.objects {
			if s.c.ClusterScoped == nil || !s.c.ClusterScoped(a.Kind) {
				needs(a.ns, fmt.Sprintf("applies %s", keyOf(a)))
			}
			if a.Group() == helmGroup && a.Kind == "HelmRelease" {
				if create, _ := fluxbuild.Field(a.Body, "spec", "install", "createNamespace").(bool); !create {
					needs(fluxbuild.String(a.Body, "spec", "targetNamespace"), fmt.Sprintf("HelmRelease %s installs its chart into spec.targetNamespace", a.key))
				}
			}
		}
	}
}

// checkSecrets reports SOPS-encrypted Secret manifests applied by a unit
// without spec.decryption: kustomize-controller (v1.9.4,
// internal/controller/kustomization_controller.go) refuses to apply a v1
// Secret with a top-level sops field unless it decrypts, and the whole
// unit fails. A plaintext Secret manifest (not generator output) applies,
// and is info: anyone who can read the repository can read it.
func (s *sim) checkSecrets() {
	for _, u := range s.units {
		if u.spec.Decryption != nil {
			continue
		}
		for _, a := range u.objects {
			if a.APIVersion != "v1" || a.Kind != "Secret" || a.Generated() {
				continue
			}
			if _, encrypted := a.Body["sops"]; encrypted {
				s.finding(u.name(), a.File, "Secret %s is SOPS-encrypted, and Flux applies it only with spec.decryption: without it the unit fails (\"configuring decryption is required\")", a.key)
			} else {
				s.info(u.name(), a.File, "Secret %s is a plaintext manifest in git: anyone who can read the repository can read it", a.key)
			}
		}
	}
}

// checkSubscriptions notes OLM Subscriptions with Manual approval: OLM
// creates their InstallPlans unapproved, the first one too, and installs
// nothing until someone approves one. That may be meant, so it is info.
func (s *sim) checkSubscriptions() {
	for _, a := range s.objects {
		if a.unit == nil || a.Group() != "operators.coreos.com" || a.Kind != "Subscription" {
			continue
		}
		if fluxbuild.String(a.Body, "spec", "installPlanApproval") == "Manual" {
			s.info(a.unit.name(), a.File, "Subscription %s: installPlanApproval Manual: OLM installs operator %s only once someone approves its InstallPlan, the first one too",
				a.key, fluxbuild.String(a.Body, "spec", "name"))
		}
	}
}
