package plan

import (
	"path"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// kustomizeRefs is the part of a kustomization.yaml the renderer reads:
// what it applies, where, and the other files it names.
type kustomizeRefs struct {
	Namespace       string   `yaml:"namespace"`
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
	var kustomizations []string
	for p := range b.files {
		if path.Base(p) == "kustomization.yaml" {
			kustomizations = append(kustomizations, p)
		}
	}
	slices.Sort(kustomizations)
	buf := &b.path
	for _, p := range kustomizations {
		f := b.files[p]
		k, err := f.parsedKustomization()
		if err != nil {
			b.errorf(unitByName(f.Unit), "%s is not a valid kustomization: %v", p, err)
			continue
		}
		dir := dirOf(p)
		for _, r := range k.refs {
			if strings.Contains(r, "://") {
				continue // remote resources are kustomize's business
			}
			// What the plan renders, looked up without allocating.
			key := buf.join(dir, r)
			if _, ok := b.files[string(key)]; ok {
				continue
			}
			// A directory of the plan with a kustomization.yaml.
			if _, ok := b.files[string(buf.append("/kustomization.yaml"))]; ok {
				continue
			}
			t := joinClean(dir, r)
			if t == ".." || strings.HasPrefix(t, "../") || t == fluxSystem || strings.HasPrefix(t, fluxSystem+"/") {
				continue // outside the overlay, or bootstrap-owned
			}
			if b.included(t) || b.withheld[t] {
				continue
			}
			b.errorf(unitByName(f.Unit), "%s lists %s, which this render does not produce", p, r)
		}
	}
}

// parsedKustomization is a kustomization.yaml as the renderer reads it.
type parsedKustomization struct {
	file kustomizationFile
	refs []string // the files and directories it names
}

// parseKustomization reads a kustomization.yaml's namespace and what it
// names.
func parseKustomization(data []byte) (*parsedKustomization, error) {
	var y kustomizeRefs
	// yamlfile.Parse reads the plain block YAML templates write without
	// yaml.v3's parser (and the rest through it).
	root, err := yamlfile.Parse("", data)
	if err != nil {
		return nil, err
	}
	if err := root.Decode(&y); err != nil {
		return nil, err
	}
	k := &parsedKustomization{file: kustomizationFile{Namespace: y.Namespace, Resources: y.Resources}}
	k.refs = append(append([]string{}, y.Resources...), y.Components...)
	for _, g := range append(y.SecretGenerator, y.ConfigMapGenerator...) {
		for _, f := range append(g.Files, g.Envs...) {
			if _, src, ok := strings.Cut(f, "="); ok {
				f = src
			}
			k.refs = append(k.refs, f)
		}
	}
	return k, nil
}

// parsedKustomization returns the kustomization.yaml f as the plan reads
// it: known when the plan computed it, parsed once otherwise (the plan
// reads each twice: what it applies, and that what it names exists).
func (f *file) parsedKustomization() (*parsedKustomization, error) {
	if f.kustomization == nil {
		k, err := parseKustomization(f.Data)
		if err != nil {
			return nil, err
		}
		f.kustomization = k
	}
	return f.kustomization, nil
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
