package e2e

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"sync"
)

// Recorder watches Kustomizations and Events from the start, to check
// afterwards that no Kustomization applied anything before each of its
// dependencies was Ready. Every write to the API server is an etcd
// revision of one counter, so a Kustomization's status changes and the
// Events kustomize-controller records come in one order: the revision.
type Recorder struct {
	mu sync.Mutex
	// firstReady is the revision at which each Kustomization (by name) was
	// first seen Ready=True.
	firstReady map[string]uint64
	// firstApply is the revision of the first Event a Kustomization
	// recorded for an apply that changed something (its change set: lines
	// such as "Namespace/cert-manager created"), which kustomize-controller
	// writes right after the apply, after its dependency check passed.
	firstApply map[string]uint64
	applyMsg   map[string]string
	// dependsOn is each Kustomization's spec.dependsOn, as last seen.
	dependsOn map[string][]string
	// failedFirst are the failures each Kustomization and HelmRelease
	// showed before it was first Ready, but for waiting on a dependency or
	// on the source a dependency applies: a unit that fails, then succeeds
	// on a retry, lacks an ordering that Flux's retries paper over.
	failedFirst map[string][]string
	// ready are the Kustomizations and HelmReleases seen Ready, as keys of failedFirst.
	ready map[string]bool
}

// benign are the Ready=False states of waiting, not of failing.
var benign = regexp.MustCompile(`^(DependencyNotReady|Progressing|ProgressingWithRetry|HealthCheckCanceled|SourceNotReady)\b|^ArtifactFailed: (Source '\S+' not found|Source artifact not found|Source is not ready|Source not ready: artifact not found|could not get Source object: \S+ "\S+" not found|\S+ "\S+" not found$)`)

func (r *Recorder) noteFailure(key string, o Obj) {
	s, reason, msg := condition(o, "Ready")
	if s != "False" {
		return
	}
	what := reason + ": " + firstLine(msg)
	if benign.MatchString(what) || slices.Contains(r.failedFirst[key], what) {
		return
	}
	r.failedFirst[key] = append(r.failedFirst[key], what)
}

// changeSet matches the first line of a change set event.
var changeSet = regexp.MustCompile(`^\S+/\S+ (created|configured)`)

// Record starts the watches.
func Record(ctx context.Context, k *Kube) (*Recorder, error) {
	r := &Recorder{firstReady: map[string]uint64{}, firstApply: map[string]uint64{}, applyMsg: map[string]string{},
		dependsOn: map[string][]string{}, failedFirst: map[string][]string{}, ready: map[string]bool{}}
	err := k.Watch(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", func(ev WatchEvent) {
		if ev.Type != "ADDED" && ev.Type != "MODIFIED" {
			return
		}
		name := str(ev.Object, "metadata", "namespace") + "/" + str(ev.Object, "metadata", "name")
		r.mu.Lock()
		defer r.mu.Unlock()
		var deps []string
		list, _ := field(ev.Object, "spec", "dependsOn").([]any)
		for _, d := range list {
			m, _ := d.(map[string]any)
			ns, _ := m["namespace"].(string)
			if ns == "" {
				ns = str(ev.Object, "metadata", "namespace")
			}
			n, _ := m["name"].(string)
			deps = append(deps, ns+"/"+n)
		}
		r.dependsOn[name] = deps
		if s, _, _ := condition(ev.Object, "Ready"); s == "True" {
			if _, ok := r.firstReady[name]; !ok {
				r.firstReady[name] = ev.Revision
			}
		}
		if _, ok := r.firstReady[name]; !ok {
			r.noteFailure("Kustomization "+name, ev.Object)
		} else {
			r.ready["Kustomization "+name] = true
		}
	})
	if err != nil {
		return nil, err
	}
	err = k.Watch(ctx, "helm.toolkit.fluxcd.io/v2", "HelmRelease", func(ev WatchEvent) {
		if ev.Type != "ADDED" && ev.Type != "MODIFIED" {
			return
		}
		name := str(ev.Object, "metadata", "namespace") + "/" + str(ev.Object, "metadata", "name")
		r.mu.Lock()
		defer r.mu.Unlock()
		if s, _, _ := condition(ev.Object, "Ready"); s == "True" {
			r.ready["HelmRelease "+name] = true
		}
		if !r.ready["HelmRelease "+name] {
			r.noteFailure("HelmRelease "+name, ev.Object)
		}
	})
	if err != nil {
		return nil, err
	}
	err = k.Watch(ctx, "v1", "Event", func(ev WatchEvent) {
		if ev.Type != "ADDED" || str(ev.Object, "involvedObject", "kind") != "Kustomization" {
			return
		}
		msg := str(ev.Object, "message")
		if !changeSet.MatchString(msg) {
			return
		}
		name := str(ev.Object, "involvedObject", "namespace") + "/" + str(ev.Object, "involvedObject", "name")
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, ok := r.firstApply[name]; !ok || ev.Revision < r.firstApply[name] {
			r.firstApply[name] = ev.Revision
			r.applyMsg[name] = msg
		}
	})
	return r, err
}

// FailedFirst lists the objects that failed before they were first
// Ready, with how (those never Ready fail on their own).
func (r *Recorder) FailedFirst() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k, fs := range r.failedFirst {
		if !r.ready[k] {
			continue
		}
		for _, f := range fs {
			out = append(out, k+": "+f)
		}
	}
	slices.Sort(out)
	return out
}

// OrderViolations lists each Kustomization that applied before one of its
// dependencies was first Ready. A Kustomization that recorded no change
// set (everything it applies existed already) is held to its first Ready
// coming after its dependencies' instead. checked counts the dependency
// edges seen at both ends, byReady those of them checked the weaker way.
func (r *Recorder) OrderViolations() (violations []string, checked, byReady int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.dependsOn))
	for n := range r.dependsOn {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		at, applied := r.firstApply[n]
		what := fmt.Sprintf("applied at revision %d (%q)", at, firstLine(r.applyMsg[n]))
		if !applied {
			ready, ok := r.firstReady[n]
			if !ok {
				continue // never did anything: its own Ready check reports it
			}
			at, what = ready, fmt.Sprintf("was Ready at revision %d (no change set recorded)", ready)
		}
		for _, d := range r.dependsOn[n] {
			ready, ok := r.firstReady[d]
			if !ok {
				violations = append(violations, fmt.Sprintf("%s %s, but its dependency %s was never Ready", n, what, d))
				continue
			}
			checked++
			if !applied {
				byReady++
			}
			if at <= ready {
				violations = append(violations, fmt.Sprintf("%s %s, before its dependency %s was Ready (revision %d)", n, what, d, ready))
			}
		}
	}
	slices.Sort(violations)
	return violations, checked, byReady
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i] + " ..."
		}
	}
	return s
}
