package toolcheck

import (
	"fmt"
	"maps"
	"path"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	sigsyaml "sigs.k8s.io/yaml"
)

// Tree is an in-memory repository: slash paths to contents.
type Tree map[string][]byte

// Kustomize builds dir of the tree with kustomize and returns the YAML stream.
// Directories that a kustomization references but the tree lacks are
// stubbed with an empty kustomization when they lie under one of stubRoots
// (content a GitRepository include brings in from the base repo).
func Kustomize(t Tree, dir string, stubRoots ...string) ([]byte, error) {
	t, err := Stubbed(t, dir, stubRoots...)
	if err != nil {
		return nil, err
	}
	fs := filesys.MakeFsInMemory()
	for p, b := range t {
		if err := fs.WriteFile("/"+p, b); err != nil {
			return nil, err
		}
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(fs, "/"+dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	return m.AsYaml()
}

const emptyKustomization = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n"

// Stubbed returns a copy of t with an empty kustomization in every directory
// that a kustomization reached from dir references, t lacks, and lies under
// one of stubRoots: what a GitRepository include brings in from the base
// repository, whose objects are not the tree's.
func Stubbed(t Tree, dir string, stubRoots ...string) (Tree, error) {
	out := maps.Clone(t)
	if err := stubMissing(out, t, dir, stubRoots, map[string]bool{}); err != nil {
		return nil, err
	}
	return out, nil
}

func stubMissing(out, t Tree, dir string, stubRoots []string, seen map[string]bool) error {
	if seen[dir] {
		return nil
	}
	seen[dir] = true
	data, ok := t[dir+"/kustomization.yaml"]
	if !ok {
		return nil
	}
	var k struct {
		Resources []string `json:"resources"`
	}
	if err := sigsyaml.Unmarshal(data, &k); err != nil {
		return fmt.Errorf("%s/kustomization.yaml: %w", dir, err)
	}
	for _, r := range k.Resources {
		target := path.Clean(path.Join(dir, r))
		if _, isFile := t[target]; isFile {
			continue
		}
		if _, isDir := t[target+"/kustomization.yaml"]; isDir {
			if err := stubMissing(out, t, target, stubRoots, seen); err != nil {
				return err
			}
			continue
		}
		for _, root := range stubRoots {
			if target == root || strings.HasPrefix(target, root+"/") {
				out[target+"/kustomization.yaml"] = []byte(emptyKustomization)
			}
		}
	}
	return nil
}
