package render

import (
	"path"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
)

// kustomizeRefs is the part of a kustomization.yaml that names other files.
type kustomizeRefs struct {
	Resources       []string `json:"resources"`
	Components      []string `json:"components"`
	SecretGenerator []struct {
		Files []string `json:"files"`
		Envs  []string `json:"envs"`
	} `json:"secretGenerator"`
	ConfigMapGenerator []struct {
		Files []string `json:"files"`
		Envs  []string `json:"envs"`
	} `json:"configMapGenerator"`
}

// checkResources verifies that every file or directory a rendered
// kustomization.yaml names inside the overlay exists in the plan (or comes
// from a source include, or is flux-system).
func (b *builder) checkResources() {
	dirs := map[string]bool{}
	for p := range b.files {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, p := range sortedKeys(b.files) {
		if path.Base(p) != "kustomization.yaml" {
			continue
		}
		f := b.files[p]
		var k kustomizeRefs
		if err := sigsyaml.Unmarshal(f.Data, &k); err != nil {
			b.errorf(unitByName(f.Unit), "%s is not a valid kustomization: %v", p, err)
			continue
		}
		refs := append(append([]string{}, k.Resources...), k.Components...)
		for _, g := range append(k.SecretGenerator, k.ConfigMapGenerator...) {
			for _, f := range append(g.Files, g.Envs...) {
				if _, src, ok := strings.Cut(f, "="); ok {
					f = src
				}
				refs = append(refs, f)
			}
		}
		dir := path.Dir(p)
		for _, r := range refs {
			if strings.Contains(r, "://") {
				continue // remote resources are kustomize's business
			}
			t := path.Clean(path.Join(dir, r))
			if t == ".." || strings.HasPrefix(t, "../") || t == flux_system || strings.HasPrefix(t, flux_system+"/") {
				continue // outside the overlay, or bootstrap-owned
			}
			if b.included(t) || b.withheld[t] {
				continue
			}
			if _, ok := b.files[t]; ok {
				continue
			}
			if dirs[t] {
				if _, ok := b.files[t+"/kustomization.yaml"]; ok {
					continue
				}
			}
			b.errorf(unitByName(f.Unit), "%s lists %s, which this render does not produce", p, r)
		}
	}
}

// included reports whether p lies in a directory a source include provides.
func (b *builder) included(p string) bool {
	for d := p; d != "."; d = path.Dir(d) {
		if b.include[d] {
			return true
		}
	}
	return false
}
