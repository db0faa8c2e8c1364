package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fluxcd/pkg/apis/kustomize"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
	"github.com/opencenter-dev/opencenter/internal/sops"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// BuildCmd prints what a cluster's overlay builds to, before any
// bootstrap: kubectl kustomize cannot build it until flux bootstrap has
// written its flux-system/.
type BuildCmd struct {
	RepoFlag `embed:""`
	Unit     string `placeholder:"FLUX-UNIT" help:"Build this Flux Kustomization's path, as kustomize-controller would (its targetNamespace and patches), instead of the overlay's root: the Flux objects."`
	Config   string `arg:"" optional:"" name:"CONFIG" help:"The config (default: the only .*-config.yaml at the root of the repository)."`
}

// Help says what build prints.
func (BuildCmd) Help() string {
	return `Renders the config's overlay in memory (nothing is written) and builds it with
kustomize the way Flux does, with flux-system/ standing in for what flux
bootstrap writes: the root gives the Flux GitRepositories and Kustomizations,
and --unit the objects one of them applies, when its path is in the overlay
(one in the base repository is opencenter verify's to build). Secrets print as
they are committed: encrypted.

Examples:

    opencenter build
    opencenter build --unit cert-manager-issuers
    opencenter build .k8s-dev-config.yaml --unit keycloak-override | kubectl diff -f -`
}

// Run prints the built objects as one YAML stream.
func (c *BuildCmd) Run(s *Streams) error {
	if err := c.resolve(optional(c.Config)); err != nil {
		return err
	}
	name, _, err := readConfig(c.Repo, c.Config)
	if err != nil {
		return err
	}
	f, err := config.Load(name, config.LoadOptions{AllowLocked: true, Keys: &sops.Keyring{}})
	if err != nil {
		return badInput(err)
	}
	pl, err := plan.Build(f, plan.Options{Repo: c.Repo, PolicyRecipients: policyRecipients(name)})
	if err != nil {
		var r result
		planFailed(&r, name, err)
		for _, m := range r.messages {
			fmt.Fprintln(s.Err, m.text)
		}
		return &exitError{r.code, errors.New("")}
	}
	tree := fluxbuild.Tree{}
	for _, pf := range pl.Files {
		tree[pl.Overlay+"/"+pf.Path] = pf.Data
	}
	local, err := overlay.LocalFiles(c.Repo, &pl.Tree)
	if err != nil {
		return &exitError{exitRefused, err}
	}
	for p, data := range local {
		tree[p] = data
	}
	tree[pl.Overlay+"/flux-system/kustomization.yaml"] = emptyFluxSystem()
	b, err := fluxbuild.NewBuilder(tree)
	if err != nil {
		return err
	}
	root, err := b.Build(pl.Overlay, "", nil)
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", pl.Overlay, err))
	}
	built := root
	if c.Unit != "" {
		if built, err = c.buildUnit(b, root, pl.Overlay); err != nil {
			return err
		}
	}
	objs := slices.Clone(built.Objects)
	slices.SortFunc(objs, func(a, b fluxbuild.Object) int { return strings.Compare(a.ID(), b.ID()) })
	for i, o := range objs {
		if i > 0 {
			fmt.Fprintln(s.Out, "---")
		}
		s.Out.Write(yamlenc.Marshal(o.Body))
	}
	for _, r := range built.Remote {
		fmt.Fprintf(s.Err, "note: %s: a remote resource, not fetched offline\n", r)
	}
	return nil
}

// buildUnit builds the path of the Flux Kustomization named c.Unit, one of
// the root's objects, when the overlay's own repository holds it.
func (c *BuildCmd) buildUnit(b *fluxbuild.Builder, root *fluxbuild.Result, overlay string) (*fluxbuild.Result, error) {
	var names []string
	for _, o := range root.Objects {
		if o.Kind != "Kustomization" || o.APIVersion == "kustomize.config.k8s.io/v1beta1" {
			continue
		}
		names = append(names, o.Name)
		if o.Name != c.Unit {
			continue
		}
		if src := fluxbuild.String(o.Body, "spec", "sourceRef", "name"); src != "flux-system" {
			return nil, badInput(fmt.Errorf("--unit %s: its path is in the repository of GitRepository %s, not in this overlay: 'opencenter verify --base DIR' builds it", c.Unit, src))
		}
		var spec struct {
			Spec struct {
				Path            string            `json:"path"`
				TargetNamespace string            `json:"targetNamespace"`
				Patches         []kustomize.Patch `json:"patches"`
			} `json:"spec"`
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Body, &spec); err != nil {
			return nil, fmt.Errorf("--unit %s: %w", c.Unit, err)
		}
		built, err := b.Build(spec.Spec.Path, spec.Spec.TargetNamespace, spec.Spec.Patches)
		if err != nil {
			return nil, badInput(fmt.Errorf("--unit %s: %w", c.Unit, err))
		}
		return built, nil
	}
	return nil, badInput(fmt.Errorf("--unit %s: no Flux Kustomization of %s is named so%s", c.Unit, overlay, diag.Suggest(c.Unit, names)))
}

// emptyFluxSystem is the flux-system/kustomization.yaml that build and
// verify put in place of what flux bootstrap writes: a kustomization of
// nothing, so the overlay's root builds before bootstrap.
func emptyFluxSystem() []byte {
	return yamlenc.Marshal(map[string]any{
		"apiVersion": "kustomize.config.k8s.io/v1beta1",
		"kind":       "Kustomization",
		"resources":  []any{},
	})
}
