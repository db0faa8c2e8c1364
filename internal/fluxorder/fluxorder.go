package fluxorder

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// Object is one Kubernetes object a Flux unit applies: from a rendered
// file, or from the base index for a base path.
type Object struct {
	Group, Kind, Name, Namespace string
	// CRDGroup is the group a CustomResourceDefinition defines.
	CRDGroup string
	// File is where the object comes from: a file of the overlay
	// (overlay-relative, InPlan set), or a base directory.
	File   string
	InPlan bool
	// Base is the base index's entry of an object of a base path.
	Base *catalog.BaseObject
}

// Key identifies an object in the cluster.
type Key struct{ Group, Kind, Namespace, Name string }

// Key returns the object's key.
func (o Object) Key() Key { return Key{o.Group, o.Kind, o.Namespace, o.Name} }

// FluxUnit is an active Flux unit with what it applies; Order fills in
// After and Shared.
type FluxUnit struct {
	// Unit is the unit the Flux unit belongs to; Spec its descriptor entry.
	Unit *catalog.Unit
	Spec *catalog.FluxUnit
	// Path is its spec.path, expanded, "./" first.
	Path string
	// Applies are the objects it applies.
	Applies []Object
	// After are the Flux units it must follow that its dependsOn chain
	// misses: the providers of the CRDs it uses, the owners of the objects
	// it leaves to them (Shared). Sorted.
	After []string
	// Shared are the objects of its base path that it leaves to another
	// active Flux unit, which applies them as its own: what the base shares
	// from another directory, what a Flux unit applying only some kinds of
	// the same path takes (Spec.Only), and, for that unit, the rest. They
	// must be taken out of this unit's build (spec.patches), so that each
	// object has one owner.
	Shared []Shared
}

// Shared is an object a Flux unit leaves to its owner.
type Shared struct {
	Object
	// Owner is the owner's Flux unit, which this one follows; "" for what
	// a Flux unit of Spec.Only leaves to the unit applying the rest of its
	// path, which follows it.
	Owner string
}

// Problem is why a Flux unit cannot be ordered or owns what another owns.
type Problem struct {
	Unit *catalog.Unit
	Msg  string
}

// builtinGroups are API groups served without a CRD, or installed by flux
// bootstrap: no Flux unit has to come first for them.
var builtinGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "policy": true, "autoscaling": true,
	"rbac.authorization.k8s.io": true, "networking.k8s.io": true, "storage.k8s.io": true,
	"apiextensions.k8s.io": true, "admissionregistration.k8s.io": true, "scheduling.k8s.io": true,
	"coordination.k8s.io": true, "discovery.k8s.io": true, "node.k8s.io": true,
	"certificates.k8s.io": true, "apiregistration.k8s.io": true,
	"source.toolkit.fluxcd.io": true, "kustomize.toolkit.fluxcd.io": true, "helm.toolkit.fluxcd.io": true,
	"notification.toolkit.fluxcd.io": true, "image.toolkit.fluxcd.io": true,
}

// Order works out the order and ownership of a plan's active Flux units,
// in place. overlay is the overlay directory, which messages name rendered
// files by. present holds the API groups whose CRDs the cluster has
// without a Flux unit (services installed outside opencenter): what uses
// them follows nothing for them.
func Order(units []*FluxUnit, overlay string, present map[string]bool) []Problem {
	var problems []Problem
	report := func(u *catalog.Unit, format string, args ...any) {
		problems = append(problems, Problem{u, fmt.Sprintf(format, args...)})
	}
	origin := func(o Object) string {
		if o.InPlan {
			return overlay + "/" + o.File
		}
		return o.File
	}
	byName := make(map[string]*FluxUnit, len(units))
	for _, fu := range units {
		byName[fu.Spec.Name] = fu
	}
	leaveShared(units)
	providers := map[string]string{} // API group -> Flux unit
	provide := func(g, name string) {
		if prev, ok := providers[g]; ok && prev != name {
			report(byName[name].Unit, "%s and %s both install the CRDs of API group %s", prev, name, g)
			return
		}
		providers[g] = name
	}
	for _, fu := range units {
		for _, g := range fu.Spec.Provides {
			provide(g, fu.Spec.Name)
		}
		for _, o := range fu.Applies {
			if o.CRDGroup != "" {
				provide(o.CRDGroup, fu.Spec.Name)
			}
		}
	}
	for g := range present {
		if _, ok := providers[g]; !ok {
			providers[g] = "" // there already: nothing to follow
		}
	}
	// before is the set of Flux units fu's dependsOn chain reaches.
	before := func(fu *FluxUnit) map[string]bool {
		seen := map[string]bool{}
		var visit func(n string)
		visit = func(n string) {
			if seen[n] {
				return
			}
			seen[n] = true
			if d := byName[n]; d != nil {
				for _, dep := range d.Spec.DependsOn {
					visit(dep)
				}
			}
		}
		for _, d := range fu.Spec.DependsOn {
			visit(d)
		}
		return seen
	}
	owners := map[Key]*FluxUnit{}
	for _, fu := range units {
		earlier := before(fu)
		missing := map[string]bool{} // the groups without a CRD fu has been told of
		// after orders fu after the provider of API group g, and reports,
		// once per group, that g has none.
		after := func(g string) (unprovided bool) {
			p, ok := providers[g]
			switch {
			case !ok && !missing[g]:
				missing[g] = true
				return true
			case ok && p != "" && !earlier[p]:
				fu.follow(p)
			}
			return false
		}
		for _, o := range fu.Shared {
			// Directly, even when it follows the owner through another
			// unit: Flux checks only a direct dependency's latest spec, and
			// a borrower that let an object go before its owner took it
			// over would delete it (its labels would still be the
			// borrower's).
			if o.Owner != "" && !slices.Contains(fu.Spec.DependsOn, o.Owner) {
				fu.follow(o.Owner)
			}
		}
		for _, o := range fu.Applies {
			if !builtinGroups[o.Group] && after(o.Group) {
				report(fu.Unit, "%s applies %s %s (%s, API group %s), whose CRD no active unit installs: enable the service that provides it",
					fu.Spec.Name, o.Kind, o.Name, origin(o), o.Group)
			}
		}
		for _, g := range fu.Spec.Needs {
			if after(g) {
				report(fu.Unit, "%s's chart creates custom resources of API group %s, and Helm refuses to install it before their CRDs exist: enable %s",
					fu.Spec.Name, g, providerService(g))
			}
		}
		for _, g := range fu.Spec.Wants {
			after(g) // without a provider, the chart does without
		}
		slices.Sort(fu.After)
		for _, o := range fu.Applies {
			if o.Kind == "CustomResourceDefinition" {
				continue // CRDs shared by charts are applied with server-side apply by design
			}
			if prev, dup := owners[o.Key()]; dup && prev.Spec.Name != fu.Spec.Name {
				report(fu.Unit, "%s %s is applied by both %s (%s) and %s (%s): an object has one owner",
					o.Kind, strings.TrimPrefix(o.Namespace+"/"+o.Name, "/"), prev.Spec.Name, origin(prev.objectOf(o.Key())), fu.Spec.Name, origin(o))
				continue
			}
			owners[o.Key()] = fu
		}
	}
	return problems
}

// follow adds the Flux unit named owner to those fu must follow, unless it
// is fu or there already.
func (fu *FluxUnit) follow(owner string) {
	if owner != fu.Spec.Name && !slices.Contains(fu.After, owner) {
		fu.After = append(fu.After, owner)
	}
}

// leaveShared takes out of each base Flux unit the objects that its
// directory's kustomization lists from another base directory's file
// (../sources/charts.yaml) when an active Flux unit builds that directory
// and applies the same object: that unit owns it, and the borrower follows
// it. Two units applying one object would relabel it on every
// reconciliation, and pruning either would delete it from under the other.
func leaveShared(units []*FluxUnit) {
	var only []*FluxUnit // the few Flux units of Spec.Only
	for _, fu := range units {
		if len(fu.Spec.Only) > 0 {
			only = append(only, fu)
		}
	}
	for _, fu := range units {
		kept := fu.Applies[:0]
		for _, o := range fu.Applies {
			owner := homeOwner(units, fu, o)
			if owner == nil {
				owner = onlyOwner(only, fu, o)
			}
			switch {
			case owner != nil:
				fu.Shared = append(fu.Shared, Shared{o, owner.Spec.Name})
			case len(fu.Spec.Only) > 0 && o.Base != nil && !slices.Contains(fu.Spec.Only, o.Kind):
				fu.Shared = append(fu.Shared, Shared{o, ""}) // the rest of the path, to the unit applying it
			default:
				kept = append(kept, o)
			}
		}
		fu.Applies = kept
	}
}

// onlyOwner returns the Flux unit among only (those of Spec.Only) that
// builds fu's path from the same source and applies o's kind: the unit that
// owns o, when fu applies the rest of the path.
func onlyOwner(only []*FluxUnit, fu *FluxUnit, o Object) *FluxUnit {
	if o.Base == nil || len(fu.Spec.Only) > 0 {
		return nil
	}
	for _, h := range only {
		if h.Path == fu.Path && h.Spec.Source == fu.Spec.Source && slices.Contains(h.Spec.Only, o.Kind) {
			return h
		}
	}
	return nil
}

// homeOwner returns the Flux unit that builds the home directory of o, an
// object of fu's base path, and applies o itself; nil when there is none.
func homeOwner(units []*FluxUnit, fu *FluxUnit, o Object) *FluxUnit {
	if o.Base == nil || o.Base.Home == "" {
		return nil
	}
	for _, h := range units {
		if h == fu || strings.TrimPrefix(h.Path, "./") != o.Base.Home {
			continue
		}
		for _, ho := range h.Applies {
			if ho.Base != nil && ho.Base.Home == "" && ho.Key() == o.Key() {
				return h
			}
		}
	}
	return nil
}

// objectOf returns the object fu applies with key k.
func (fu *FluxUnit) objectOf(k Key) Object {
	for _, o := range fu.Applies {
		if o.Key() == k {
			return o
		}
	}
	return Object{File: "?"}
}

// providerService names, for a message, the unit whose Flux unit provides
// API group g: the service to enable.
func providerService(g string) string {
	for i := range generated.Units {
		for _, fu := range generated.Units[i].FluxUnits {
			if slices.Contains(fu.Provides, g) {
				return generated.Units[i].Name + ", which installs them"
			}
		}
	}
	return "the service that installs them" // go generate holds every need to a provider
}
