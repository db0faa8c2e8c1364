package fluxdiff

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"

	"github.com/opencenter-dev/opencenter/internal/chartvalues"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
)

// Change says how something differs between the two states.
type Change string

// The changes.
const (
	Added   Change = "added"
	Removed Change = "removed"
	Changed Change = "changed"
	// Moved: an object another Flux unit applies now.
	Moved Change = "moved"
	// Unchanged is a cluster that does not change.
	Unchanged Change = "unchanged"
)

// Cluster is how what Flux applies to one cluster changes.
type Cluster struct {
	// Cluster is the cluster's name.
	Cluster string `json:"cluster"`
	// Change is added (a new overlay), removed (an overlay gone), changed,
	// or unchanged.
	Change Change `json:"change"`
	// Units are the Flux units whose objects, values or build change, by name.
	Units []Unit `json:"units,omitempty"`
	// NotCompared are the Flux units whose source is not available
	// offline (or that are suspended), in either state. An unchanged
	// cluster that lists some changed nowhere else: it may change there.
	NotCompared []NotCompared `json:"notCompared,omitempty"`
	// Ciphertext reports secret values told apart by their ciphertext,
	// since no key opened them: the same value encrypted anew differs too.
	Ciphertext bool `json:"ciphertext,omitempty"`
}

// Unit is how one Flux unit changes.
type Unit struct {
	// Unit is the Flux Kustomization, as findings name it.
	Unit string `json:"unit"`
	// Change is added (a new Flux unit), removed, or changed.
	Change Change `json:"change"`
	// Failed says why the unit does not build in the new state (BaseFailed
	// in the old one): Flux applies none of its changes then.
	Failed     string `json:"failed,omitempty"`
	BaseFailed string `json:"baseFailed,omitempty"`
	// Objects are the unit's objects that change, sorted.
	Objects []Object `json:"objects,omitempty"`
	// Remote are the remote resources of its build that come or go (they
	// are not fetched offline).
	Remote []Remote `json:"remote,omitempty"`
}

// Object is how one object changes.
type Object struct {
	Change     Change `json:"change"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// MovedFrom names the Flux unit that applied the object before.
	MovedFrom string `json:"movedFrom,omitempty"`
	// Diff is the unified diff of the object as YAML, secret values shown
	// as "(secret)"; each hunk starts with an "@@" line.
	Diff []string `json:"diff,omitempty"`
	// Values is how the values of a HelmRelease change.
	Values *Values `json:"values,omitempty"`
}

// Values is how the values helm-controller passes to a chart change.
type Values struct {
	// Diff is the unified diff of the values as YAML.
	Diff []string `json:"diff,omitempty"`
	// BaseError and Error say why the values cannot be computed in the old
	// and the new state: helm-controller fails the release on most.
	BaseError string `json:"baseError,omitempty"`
	Error     string `json:"error,omitempty"`
	// Unknown lists the values sources whose content is not known here.
	Unknown []string `json:"unknown,omitempty"`
}

// Remote is a remote resource that comes or goes.
type Remote struct {
	Change Change `json:"change"`
	File   string `json:"file"`
	URL    string `json:"url"`
}

// NotCompared are Flux units that were not compared.
type NotCompared struct {
	// Source is the URL of their GitRepository, when the source is why.
	Source string `json:"source,omitempty"`
	// Reason says why, when it is not their source (suspended, say).
	Reason string   `json:"reason,omitempty"`
	Units  []string `json:"units"`
}

// Label names the object for people: kind, then namespace/name.
func (o *Object) Label() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// objKey identifies an object across the two states: its API group (not
// its version), kind, namespace and name.
type objKey struct{ group, kind, ns, name string }

func keyOf(o fluxbuild.Object) objKey { return objKey{o.Group(), o.Kind, o.Namespace, o.Name} }

func compareKeys(a, b objKey) int {
	return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.ns, b.ns), cmp.Compare(a.name, b.name), cmp.Compare(a.group, b.group))
}

// applied is one object and the unit applying it.
type applied struct {
	obj  fluxbuild.Object
	unit string
}

// index is every object a state applies, by key; an object two units
// apply counts for the first in name order (verify reports it).
type index map[objKey]applied

func indexOf(st *State) index {
	idx := index{}
	if st == nil {
		return idx
	}
	for _, u := range st.Units {
		for _, o := range u.Objects {
			if _, dup := idx[keyOf(o)]; !dup {
				idx[keyOf(o)] = applied{o, u.Name}
			}
		}
	}
	return idx
}

// Compare compares what Flux applies to the cluster in state base with
// what it applies in state head. A nil state is a cluster without an
// overlay in that state.
func Compare(cluster string, base, head *State) *Cluster {
	c := &Cluster{Cluster: cluster, Change: Unchanged}
	switch {
	case base == nil && head == nil:
		return c
	case head == nil:
		c.Change = Removed
		return c
	}
	baseUnits, headUnits := unitsOf(base), unitsOf(head)
	baseIdx, headIdx := indexOf(base), indexOf(head)

	// Units not compared: their objects are not known in that state.
	skip := map[string]bool{}
	groups := map[[2]string][]string{}
	for _, units := range []map[string]fluxsim.Unit{baseUnits, headUnits} {
		for name, u := range units {
			if u.State != fluxsim.NotChecked || skip[name] {
				continue
			}
			skip[name] = true
			k := [2]string{u.Source, ""}
			if u.Source == "" {
				k = [2]string{"", u.Reason}
			}
			groups[k] = append(groups[k], name)
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(groups), func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }) {
		c.NotCompared = append(c.NotCompared, NotCompared{Source: k[0], Reason: k[1], Units: slices.Sorted(slices.Values(groups[k]))})
	}

	units := map[string]*Unit{}
	unit := func(name string) *Unit {
		if u, ok := units[name]; ok {
			return u
		}
		u := &Unit{Unit: name, Change: Changed}
		if _, ok := baseUnits[name]; !ok {
			u.Change = Added
		}
		if _, ok := headUnits[name]; !ok {
			u.Change = Removed
		}
		units[name] = u
		return u
	}
	for name := range baseUnits {
		if _, ok := headUnits[name]; !ok {
			unit(name)
		}
	}
	for name, hu := range headUnits {
		bu, ok := baseUnits[name]
		if !ok {
			unit(name)
		}
		if skip[name] {
			continue
		}
		if hu.State == fluxsim.Failed {
			// Flux applies nothing of it, and prunes nothing either: its
			// objects are not compared.
			skip[name] = true
			if !ok || bu.State != fluxsim.Failed || bu.Reason != hu.Reason {
				unit(name).Failed = hu.Reason
			}
			continue
		}
		if ok && bu.State == fluxsim.Failed && hu.State != fluxsim.Failed {
			unit(name).BaseFailed = bu.Reason
		}
		if remote := remoteChanges(bu.Remote, hu.Remote); len(remote) > 0 {
			unit(name).Remote = remote
		}
	}

	keys := slices.Collect(maps.Keys(headIdx))
	for k := range baseIdx {
		if _, ok := headIdx[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareKeys)
	for _, k := range keys {
		b, inBase := baseIdx[k]
		h, inHead := headIdx[k]
		if inBase && (skip[b.unit] || !inHead && headUnits[b.unit].State == fluxsim.Failed) || inHead && skip[h.unit] {
			continue
		}
		var o Object
		var cipher bool
		switch {
		case !inBase:
			o = newObject(Added, h.obj)
			if hasUnit(headUnits, h.unit) && head.isRelease(h.obj) {
				// A new release: its values, to review with it.
				if v, _, err := head.values(h.obj, headIdx); err == nil {
					o.Values = &Values{}
					o.Values.Diff, _ = lineDiff(nil, v)
				}
			}
		case !inHead:
			o = newObject(Removed, b.obj)
		default:
			o = newObject(Changed, h.obj)
			if b.unit != h.unit {
				o.Change, o.MovedFrom = Moved, b.unit
			}
			bv, hv := base.view(b.obj), head.view(h.obj)
			if !equal(bv, hv) {
				o.Diff, cipher = lineDiff(bv, hv)
			}
			if head.isRelease(h.obj) {
				o.Values = releaseValues(base, head, b.obj, h.obj, baseIdx, headIdx)
			}
			if o.Diff == nil && o.Values == nil && o.Change != Moved {
				continue
			}
		}
		c.Ciphertext = c.Ciphertext || cipher
		owner := h.unit
		if !inHead {
			owner = b.unit
		}
		u := unit(owner)
		u.Objects = append(u.Objects, o)
	}
	for _, name := range slices.Sorted(maps.Keys(units)) {
		c.Units = append(c.Units, *units[name])
	}
	// A cluster with no change keeps its units not compared: its overlay
	// differs, and the difference may lie in them.
	switch {
	case base == nil:
		c.Change = Added
	case len(c.Units) > 0:
		c.Change = Changed
	}
	return c
}

func unitsOf(st *State) map[string]fluxsim.Unit {
	m := map[string]fluxsim.Unit{}
	if st != nil {
		for _, u := range st.Units {
			m[u.Name] = u
		}
	}
	return m
}

func hasUnit(units map[string]fluxsim.Unit, name string) bool {
	_, ok := units[name]
	return ok
}

func newObject(change Change, o fluxbuild.Object) Object {
	return Object{Change: change, APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// remoteChanges lists the remote resources ("file url") that come or go.
func remoteChanges(base, head []string) []Remote {
	var out []Remote
	for _, r := range head {
		if !slices.Contains(base, r) {
			f, u, _ := strings.Cut(r, " ")
			out = append(out, Remote{Added, f, u})
		}
	}
	for _, r := range base {
		if !slices.Contains(head, r) {
			f, u, _ := strings.Cut(r, " ")
			out = append(out, Remote{Removed, f, u})
		}
	}
	slices.SortFunc(out, func(a, b Remote) int { return cmp.Or(cmp.Compare(a.URL, b.URL), cmp.Compare(a.File, b.File)) })
	return out
}

// isRelease reports whether o is a HelmRelease.
func (st *State) isRelease(o fluxbuild.Object) bool {
	return o.Group() == "helm.toolkit.fluxcd.io" && o.Kind == "HelmRelease"
}

// releaseValues compares the values of one HelmRelease in the two states;
// nil when they do not change.
func releaseValues(base, head *State, bo, ho fluxbuild.Object, baseIdx, headIdx index) *Values {
	bv, bu, berr := base.values(bo, baseIdx)
	hv, hu, herr := head.values(ho, headIdx)
	v := &Values{}
	switch {
	case berr != nil || herr != nil:
		if berr != nil && herr != nil && berr.Error() == herr.Error() {
			return nil
		}
		if berr != nil {
			v.BaseError = berr.Error()
		}
		if herr != nil {
			v.Error = herr.Error()
		}
		if berr == nil || herr == nil {
			return v
		}
	case equal(bv, hv):
		return nil
	default:
		v.Diff, _ = lineDiff(bv, hv)
	}
	v.Unknown = slices.Compact(slices.Sorted(slices.Values(append(bu, hu...))))
	return v
}

// values composes the values of HelmRelease o as helm-controller would,
// from the objects the state applies; unknown names the sources whose
// content is not known here.
func (st *State) values(o fluxbuild.Object, idx index) (values map[string]any, unknown []string, err error) {
	var spec helmv2.HelmReleaseSpec
	raw, err := json.Marshal(o.Body["spec"])
	if err == nil {
		err = json.Unmarshal(raw, &spec)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("spec: %v", err)
	}
	values, err = chartvalues.Compose(o.Namespace, &spec, func(kind, ns, name string) (chartvalues.Source, bool) {
		a, ok := idx[objKey{"", kind, ns, name}]
		if !ok {
			if kind == "Secret" && st.External != nil && st.External(ns, name) {
				unknown = append(unknown, fmt.Sprintf("Secret %s/%s (outside the repository)", ns, name))
				return chartvalues.Source{Unknown: true}, true
			}
			return chartvalues.Source{}, false
		}
		secret, opaque := st.secretMaterial(a.obj)
		if opaque {
			unknown = append(unknown, fmt.Sprintf("%s %s/%s (encrypted; no age key opened it)", kind, ns, name))
		}
		return chartvalues.Source{Body: a.obj.Body, Secret: secret, Unknown: opaque}, true
	})
	if errors.Is(err, chartvalues.ErrTargetPath) {
		err = fmt.Errorf("not computed: %w", err)
	}
	return values, unknown, err
}
