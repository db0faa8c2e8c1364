package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// check makes the assertions of a reconciled cluster.
func (r *clusterRun) check(ctx context.Context) error {
	k := r.c.Kube
	res := r.res
	want, err := r.definedUnits()
	if err != nil {
		return err
	}
	ks, err := k.List(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "")
	if err != nil {
		return err
	}
	byName := map[string]Obj{}
	for _, o := range ks {
		byName[str(o, "metadata", "name")] = o
	}
	for _, o := range ks {
		if !slices.Contains(want, str(o, "metadata", "name")) {
			want = append(want, str(o, "metadata", "name")) // made by a build, not defined in the repository
		}
	}
	slices.Sort(want)
	res.Total = len(want)
	for _, n := range want {
		o, ok := byName[n]
		why, isException := r.except[n]
		switch {
		case isException && ok && isReady(o):
			res.fail("Kustomization %s is listed as an exception (%s) but is Ready: the list is stale", n, why)
		case isException:
			st := "never applied"
			if ok {
				st = state(o)
			}
			res.Exceptions = append(res.Exceptions, fmt.Sprintf("%s: %s [%s]", n, why, st))
		case ok && isReady(o):
			res.Ready++
		case ok:
			res.fail("Kustomization %s: %s", n, state(o))
		default:
			res.fail("Kustomization %s: not in the cluster", n)
		}
	}

	ex, err := BuildExpected(ctx, k, r.e.IDs)
	if err != nil {
		return err
	}
	for _, p := range ex.Problems {
		unit, _, _ := strings.Cut(p, ":")
		if r.except[unit] == "" {
			res.fail("expected objects: %s", p)
		}
	}
	r.compareInventories(ctx, ex, byName)
	r.checkReleases(ctx, ex)
	r.checkSecrets(ctx, ex)
	violations, checked, byReady := r.rec.OrderViolations()
	res.OrderChecked, res.OrderByReady = checked, byReady
	for _, v := range violations {
		res.fail("order: %s", v)
	}
	for _, f := range r.rec.FailedFirst() {
		if unit := strings.TrimPrefix(strings.Split(f, ":")[0], "Kustomization flux-system/"); r.except[unit] == "" {
			res.FailedFirst = append(res.FailedFirst, f)
		}
	}
	return nil
}

// compareInventories compares each Ready Kustomization's inventory with
// the objects fluxbuild builds from the same artifact, namespaces taken
// off the kinds the API server serves without one (as the server does).
func (r *clusterRun) compareInventories(ctx context.Context, ex *Expected, live map[string]Obj) {
	units := make([]string, 0, len(ex.Built))
	for u := range ex.Built {
		units = append(units, u)
	}
	slices.Sort(units)
	for _, u := range units {
		k, ok := live[u]
		if !ok || !isReady(k) {
			continue
		}
		built := map[string]bool{}
		for _, o := range ex.Built[u] {
			apiVersion, kind, ns, name := str(o, "apiVersion"), str(o, "kind"), str(o, "namespace"), str(o, "name")
			if res, err := r.c.Kube.resource(ctx, apiVersion, kind); err == nil && !res.namespaced {
				ns = ""
			}
			group, _, found := strings.Cut(apiVersion, "/")
			if !found {
				group = ""
			}
			built[ns+"_"+name+"_"+group+"_"+kind] = true
		}
		inv := map[string]bool{}
		for _, id := range inventory(k) {
			inv[id] = true
		}
		for id := range built {
			if !inv[id] {
				r.res.ModelDiffs = append(r.res.ModelDiffs, fmt.Sprintf("%s: fluxbuild builds %s, which kustomize-controller did not apply", u, id))
			}
		}
		r.res.InventoryCompared += len(inv)
		for id := range inv {
			if !built[id] {
				r.res.ModelDiffs = append(r.res.ModelDiffs, fmt.Sprintf("%s: kustomize-controller applied %s, which fluxbuild does not build", u, id))
			}
		}
	}
	slices.Sort(r.res.ModelDiffs)
}

// checkReleases holds every HelmRelease the builds make to an installed
// release of its stand-in chart, with the values the overlay gives it.
func (r *clusterRun) checkReleases(ctx context.Context, ex *Expected) {
	res := r.res
	k := r.c.Kube
	rels, err := Releases(ctx, k)
	if err != nil {
		res.fail("reading Helm releases: %v", err)
		return
	}
	units := make([]string, 0, len(ex.Units))
	for u := range ex.Units {
		units = append(units, u)
	}
	slices.Sort(units)
	for _, u := range units {
		for _, id := range ex.Units[u] {
			kind, rest, _ := strings.Cut(id, "/")
			if kind != "HelmRelease" {
				continue
			}
			if r.except[u] != "" {
				res.Exceptions = append(res.Exceptions, fmt.Sprintf("HelmRelease %s (of %s): its unit is an exception", rest, u))
				continue
			}
			res.HelmReleases++
			ns, name, _ := strings.Cut(rest, "/")
			hr, err := k.Get(ctx, "helm.toolkit.fluxcd.io/v2", "HelmRelease", ns, name)
			if err != nil {
				res.fail("HelmRelease %s: %v", rest, err)
				continue
			}
			if !isReady(hr) {
				res.fail("HelmRelease %s: %s", rest, state(hr))
				continue
			}
			key, _ := releaseOf(hr)
			rel, ok := rels[key]
			if !ok {
				res.fail("HelmRelease %s: no Helm release %s", rest, key)
				continue
			}
			relName := rel.Name
			chart := str(hr, "spec", "chart", "spec", "chart")
			wantVer := versionFor(str(hr, "spec", "chart", "spec", "version"))
			if !strings.HasPrefix(chart, ".") && (rel.Chart != chart || rel.ChartVer != wantVer) {
				res.fail("HelmRelease %s: release %s is chart %s %s, not the stand-in %s %s", rest, relName, rel.Chart, rel.ChartVer, chart, wantVer)
				continue
			}
			if rel.Version > 1 {
				res.FailedFirst = append(res.FailedFirst, fmt.Sprintf("HelmRelease %s: release %s is at version %d after the first reconciliation: installed, then upgraded", rest, relName, rel.Version))
			}
			if rel.Status != "deployed" {
				res.fail("HelmRelease %s: release %s is %s", rest, relName, rel.Status)
				continue
			}
			want, err := ex.ExpectedValues(hr)
			if err != nil {
				res.fail("HelmRelease %s: %v", rest, err)
				continue
			}
			if !sameJSON(want, rel.Config) {
				res.fail("HelmRelease %s: release values differ from the overlay's:\n    want %s\n    got  %s", rest, compact(want), compact(rel.Config))
				continue
			}
			res.Installed++
		}
	}
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

// checkSecrets holds every Secret the overlay SOPS-encrypted to the
// cluster's copy, decrypted, and looks for every value of the config's
// secrets: in the cluster's Secrets.
func (r *clusterRun) checkSecrets(ctx context.Context, ex *Expected) {
	res := r.res
	k := r.c.Kube
	keys := make([]string, 0, len(ex.Encrypted))
	for key := range ex.Encrypted {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		es := ex.Encrypted[key]
		if why := r.except[es.Unit]; why != "" {
			res.Exceptions = append(res.Exceptions, fmt.Sprintf("Secret %s (SOPS-encrypted, of %s): its unit is an exception", key, es.Unit))
			continue
		}
		res.Encrypted++
		ns, name, _ := strings.Cut(key, "/")
		s, err := k.Get(ctx, "v1", "Secret", ns, name)
		if err != nil {
			res.fail("Secret %s (SOPS-encrypted in git, of %s): %v", key, es.Unit, err)
			continue
		}
		live := map[string][]byte{}
		d, _ := s["data"].(map[string]any)
		for dk, dv := range d {
			b, _ := base64.StdEncoding.DecodeString(dv.(string))
			live[dk] = b
		}
		ok := len(live) == len(es.Data)
		for wk, wv := range es.Data {
			if !bytes.Equal(live[wk], wv) {
				ok = false
				if bytes.Contains(live[wk], []byte("ENC[")) {
					res.fail("Secret %s key %s: still SOPS-encrypted in the cluster", key, wk)
				} else {
					res.fail("Secret %s key %s: the cluster holds other bytes than the decrypted file", key, wk)
				}
			}
		}
		if ok {
			res.Decrypted++
		}
	}

	// Every value under the config's secrets: is in some Secret.
	var doc map[string]any
	if err := yaml.Unmarshal(r.plainCfg, &doc); err != nil {
		res.fail("config: %v", err)
		return
	}
	var leaves []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch t := v.(type) {
		case map[string]any:
			for k2, v2 := range t {
				walk(path+"."+k2, v2)
			}
		case []any:
			for i, v2 := range t {
				walk(fmt.Sprintf("%s[%d]", path, i), v2)
			}
		case string:
			leaves = append(leaves, path+"\x00"+t)
		}
	}
	walk("secrets", doc["secrets"])
	slices.Sort(leaves)
	all, err := k.List(ctx, "v1", "Secret", "")
	if err != nil {
		res.fail("listing Secrets: %v", err)
		return
	}
	var blobs [][]byte
	for _, s := range all {
		if str(s, "type") == "helm.sh/release.v1" {
			continue
		}
		d, _ := s["data"].(map[string]any)
		for _, dv := range d {
			b, _ := base64.StdEncoding.DecodeString(dv.(string))
			blobs = append(blobs, b)
		}
	}
	for _, l := range leaves {
		path, value, _ := strings.Cut(l, "\x00")
		if slices.ContainsFunc(blobs, func(b []byte) bool { return bytes.Contains(b, []byte(value)) }) {
			res.ConfigValues++
			res.ValuesFound++
			continue
		}
		// Not in the cluster: excepted when only an exception's Secret holds it.
		var units []string
		for _, es := range ex.Encrypted {
			for _, v := range es.Data {
				if bytes.Contains(v, []byte(value)) && !slices.Contains(units, es.Unit) {
					units = append(units, es.Unit)
				}
			}
		}
		slices.Sort(units)
		if len(units) > 0 && !slices.ContainsFunc(units, func(u string) bool { return r.except[u] == "" }) {
			res.Exceptions = append(res.Exceptions, fmt.Sprintf("config value %s: only in Secrets of %s, exceptions", path, strings.Join(units, ", ")))
			continue
		}
		res.ConfigValues++
		res.fail("config value %s: in no Secret of the cluster (git has it in Secrets of %v)", path, units)
	}
}
