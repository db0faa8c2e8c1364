package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
)

// fluxUnit is the part of a Flux Kustomization the takeover looks at.
type fluxUnit struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Suspend bool  `yaml:"suspend"`
		Prune   *bool `yaml:"prune"`
	} `yaml:"spec"`
}

// fluxUnits are the Flux Kustomizations in one YAML stream; documents
// that are not YAML maps (an encrypted file, a script) hold none.
func fluxUnits(data []byte) []fluxUnit {
	var out []fluxUnit
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var u fluxUnit
		err := dec.Decode(&u)
		if errors.Is(err, io.EOF) || err != nil && !isTypeError(err) {
			return out
		}
		if err == nil && u.Kind == "Kustomization" && len(u.APIVersion) > len("kustomize.toolkit.fluxcd.io/") &&
			u.APIVersion[:len("kustomize.toolkit.fluxcd.io/")] == "kustomize.toolkit.fluxcd.io/" && u.Metadata.Name != "" {
			out = append(out, u)
		}
	}
}

func isTypeError(err error) bool {
	var te *yaml.TypeError
	return errors.As(err, &te)
}

// unsafeTakeover returns the Flux Kustomizations of the files an adopting
// render replaces or deletes that the new overlay does not render and that
// still garbage-collect: applied with suspend off and prune on. Once the
// new overlay is applied, Flux prunes them, and kustomize-controller then
// deletes their whole inventory, HelmReleases included. Suspended, or with
// prune off, it leaves their objects for the new units to take over.
func unsafeTakeover(pl *plan.Plan, changes []overlay.Change) []string {
	rendered := map[string]bool{}
	for _, f := range pl.Files {
		for _, u := range fluxUnits(f.Data) {
			rendered[u.Metadata.Name] = true
		}
	}
	var out []string
	for _, ch := range changes {
		if !ch.Adopted {
			continue
		}
		for _, u := range fluxUnits(ch.Old) {
			prune := u.Spec.Prune != nil && *u.Spec.Prune
			if rendered[u.Metadata.Name] || u.Spec.Suspend || !prune {
				continue
			}
			out = append(out, fmt.Sprintf("%s (%s/%s)", u.Metadata.Name, pl.Overlay, ch.Path))
		}
	}
	slices.Sort(out)
	return out
}
