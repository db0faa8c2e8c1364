package fluxdiff

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"filippo.io/age"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// State is what Flux applies to a cluster in one state of its repository.
type State struct {
	// Units are the cluster's Flux units and what each applies
	// (fluxsim.Report.Applied).
	Units []fluxsim.Unit
	// Tree is the cluster repository's artifact, after Decrypt.
	Tree fluxbuild.Tree
	// Encrypted are the paths of Tree that were SOPS-encrypted, whether
	// Decrypt opened them or not (see Decrypt).
	Encrypted map[string]bool
	// External reports the Secrets the cluster has outside the repository
	// (the config names them): values a HelmRelease reads from one are not
	// known. Nil: none.
	External func(namespace, name string) bool
}

// Decrypt decrypts, in place, the SOPS-encrypted files of tree that ids
// open, as kustomize-controller does before it applies them, and returns
// the paths of every encrypted file: objects read or generated from them
// are secret material. A file no key opens stays as it is, and its values
// compare as ciphertext.
func Decrypt(tree fluxbuild.Tree, ids []age.Identity) (encrypted map[string]bool) {
	encrypted = map[string]bool{}
	for p, data := range tree {
		if !maybeEncrypted(data) || !sops.IsEncrypted(data) {
			continue
		}
		encrypted[p] = true
		if len(ids) == 0 {
			continue
		}
		if plain, _, err := sops.Decrypt(data, ids); err == nil {
			tree[p] = plain
		}
	}
	return encrypted
}

// maybeEncrypted is a quick look for the sops: block at the top level of a
// YAML file, which every file sops encrypts has.
func maybeEncrypted(data []byte) bool {
	return bytes.HasPrefix(data, []byte("sops:")) || bytes.Contains(data, []byte("\nsops:"))
}

// stillEncrypted reports whether the tree's file p is SOPS ciphertext: no
// key opened it.
func (st *State) stillEncrypted(p string) bool {
	return st.Encrypted[p] && maybeEncrypted(st.Tree[p])
}

// generatorFiles returns the files of the tree that the kustomize generator
// making o reads (files, envs), from the kustomization that holds it; ok is
// false when that generator cannot be found there.
func (st *State) generatorFiles(o fluxbuild.Object) (files []string, ok bool) {
	data, inTree := st.Tree[o.File]
	if !inTree {
		return nil, false
	}
	var k struct {
		Secrets    []generator `json:"secretGenerator"`
		ConfigMaps []generator `json:"configMapGenerator"`
	}
	if sigsyaml.Unmarshal(data, &k) != nil {
		return nil, false
	}
	gens := k.ConfigMaps
	if o.Kind == "Secret" {
		gens = k.Secrets
	}
	i := slices.IndexFunc(gens, func(g generator) bool { return g.Name == o.Name })
	if i < 0 {
		// A name with kustomize's hash suffix.
		i = slices.IndexFunc(gens, func(g generator) bool { return strings.HasPrefix(o.Name, g.Name+"-") })
	}
	if i < 0 {
		return nil, false
	}
	g, dir := gens[i], path.Dir(o.File)
	for _, f := range g.Files {
		if _, p, ok := strings.Cut(f, "="); ok {
			f = p
		}
		files = append(files, path.Join(dir, f))
	}
	for _, f := range append(g.Envs, g.Env) {
		if f != "" {
			files = append(files, path.Join(dir, f))
		}
	}
	return files, true
}

// generator is the part of a kustomize generator that names the files it reads.
type generator struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
	Envs  []string `json:"envs"`
	Env   string   `json:"env"`
}

// secretMaterial reports whether o's content is secret: a Secret manifest,
// an object read from an encrypted file, or one generated from one. A
// generated Secret whose files are all plaintext in the repository (a
// values file) is not. unknown reports content no key opened.
func (st *State) secretMaterial(o fluxbuild.Object) (secret, unknown bool) {
	if !o.Generated() {
		if st.Encrypted[o.File] {
			return true, st.stillEncrypted(o.File)
		}
		_, sopsBlock := o.Body["sops"]
		return isSecret(o) || sopsBlock, sopsBlock
	}
	files, ok := st.generatorFiles(o)
	if !ok {
		// Not the cluster repository's (the base's are plaintext), or a
		// generator that cannot be told: a Secret counts as secret.
		_, inTree := st.Tree[o.File]
		return isSecret(o) && inTree, false
	}
	for _, f := range files {
		if st.Encrypted[f] {
			secret = true
			unknown = unknown || st.stillEncrypted(f)
		}
	}
	return secret, unknown
}

// isSecret reports whether o is a core Secret.
func isSecret(o fluxbuild.Object) bool { return o.Group() == "" && o.Kind == "Secret" }
