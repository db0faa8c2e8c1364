package render

import (
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// kustomizeRefs is the part of a kustomization.yaml that names other files
// (decoded with yaml.v3 directly: no JSON round trip on the hot path).
type kustomizeRefs struct {
	Resources       []string `yaml:"resources"`
	Components      []string `yaml:"components"`
	SecretGenerator []struct {
		Files []string `yaml:"files"`
		Envs  []string `yaml:"envs"`
	} `yaml:"secretGenerator"`
	ConfigMapGenerator []struct {
		Files []string `yaml:"files"`
		Envs  []string `yaml:"envs"`
	} `yaml:"configMapGenerator"`
}

// checkResources verifies that every file or directory a rendered
// kustomization.yaml names inside the overlay exists in the plan (or comes
// from a source include, or is flux-system).
func (b *builder) checkResources() {
	dirs := map[string]bool{}
	for p := range b.files {
		for d := dirOf(p); d != "." && !dirs[d]; d = dirOf(d) {
			dirs[d] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(b.files)) {
		if path.Base(p) != "kustomization.yaml" {
			continue
		}
		f := b.files[p]
		refs := f.refs
		if refs == nil {
			var err error
			if refs, err = kustomizationRefs(f.Data); err != nil {
				b.errorf(unitByName(f.Unit), "%s is not a valid kustomization: %v", p, err)
				continue
			}
		}
		dir := dirOf(p)
		for _, r := range refs {
			if strings.Contains(r, "://") {
				continue // remote resources are kustomize's business
			}
			t := joinClean(dir, r)
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

// refsCache maps kustomization contents to the paths they name: most
// rendered kustomizations are identical across the clusters of a fleet.
var (
	refsMu    sync.Mutex
	refsCache = map[string][]string{}
)

const refsCacheMax = 4096

// kustomizationRefs returns the files and directories a kustomization names.
func kustomizationRefs(data []byte) ([]string, error) {
	refsMu.Lock()
	refs, ok := refsCache[string(data)]
	refsMu.Unlock()
	if ok {
		return refs, nil
	}
	var k kustomizeRefs
	if err := yaml.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	refs = append(append([]string{}, k.Resources...), k.Components...)
	for _, g := range append(k.SecretGenerator, k.ConfigMapGenerator...) {
		for _, f := range append(g.Files, g.Envs...) {
			if _, src, ok := strings.Cut(f, "="); ok {
				f = src
			}
			refs = append(refs, f)
		}
	}
	refsMu.Lock()
	if len(refsCache) >= refsCacheMax {
		clear(refsCache)
	}
	refsCache[string(data)] = refs
	refsMu.Unlock()
	return refs, nil
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
