package toolcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	sigsyaml "sigs.k8s.io/yaml"
)

// crdSource is a controller module and the CRD files taken from it.
type crdSource struct {
	Module string
	// Version pins the module; empty means the version of Module/api this
	// project builds with.
	Version string
	Files   []string
}

// FluxCRDs are the CRDs rendered objects are checked against. helm-controller
// is pinned: the renderer does not use its API types, only overlay templates
// write HelmReleases, and v1.4.0 is the release the module proxy serves.
var FluxCRDs = []crdSource{
	{Module: "github.com/fluxcd/source-controller", Files: []string{
		"config/crd/bases/source.toolkit.fluxcd.io_gitrepositories.yaml",
		"config/crd/bases/source.toolkit.fluxcd.io_helmrepositories.yaml",
	}},
	{Module: "github.com/fluxcd/kustomize-controller", Files: []string{
		"config/crd/bases/kustomize.toolkit.fluxcd.io_kustomizations.yaml",
	}},
	{Module: "github.com/fluxcd/helm-controller", Version: "v1.4.0", Files: []string{
		"config/crd/bases/helm.toolkit.fluxcd.io_helmreleases.yaml",
	}},
}

type schema struct {
	validator  validation.SchemaValidator
	structural *structuralschema.Structural
	cel        *cel.Validator
}

// CRDs validates objects against a set of CRDs.
type CRDs struct {
	byKind map[string]*schema // apiVersion + "/" + kind
}

var (
	fluxOnce sync.Once
	fluxCRDs *CRDs
	fluxErr  error
)

// Flux returns the validator of the Flux CRDs, loaded once per process.
func Flux() (*CRDs, error) {
	fluxOnce.Do(func() { fluxCRDs, fluxErr = loadFlux() })
	return fluxCRDs, fluxErr
}

func loadFlux() (*CRDs, error) {
	c := &CRDs{byKind: map[string]*schema{}}
	for _, src := range FluxCRDs {
		dir, err := moduleDir(src.Module, src.Version)
		if err != nil {
			return nil, err
		}
		for _, f := range src.Files {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				return nil, err
			}
			if err := c.Add(data); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", src.Module, f, err)
			}
		}
	}
	return c, nil
}

// apiModuleVersion returns the version of mod/api in this build.
func apiModuleVersion(mod string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", mod+"/api").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s/api: %w", mod, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// moduleDir downloads (or finds in the module cache) the controller module at
// version v, or at the version of its API module when v is empty. It runs
// outside this module so that go.mod and go.sum stay untouched.
func moduleDir(mod, v string) (string, error) {
	if v == "" {
		var err error
		if v, err = apiModuleVersion(mod); err != nil {
			return "", err
		}
	}
	cmd := exec.Command("go", "mod", "download", "-json", mod+"@"+v)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", mod, v, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", err
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", mod, v, info.Error)
	}
	return info.Dir, nil
}

// Add registers every served version of a CRD.
func (c *CRDs) Add(data []byte) error {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := sigsyaml.Unmarshal(data, &crd); err != nil {
		return err
	}
	for _, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		var internal apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
			return err
		}
		sv, _, err := validation.NewSchemaValidator(&internal)
		if err != nil {
			return err
		}
		st, err := structuralschema.NewStructural(&internal)
		if err != nil {
			return err
		}
		key := crd.Spec.Group + "/" + v.Name + "/" + crd.Spec.Names.Kind
		c.byKind[key] = &schema{validator: sv, structural: st, cel: cel.NewValidator(st, true, celconfig.PerCallLimit)}
	}
	return nil
}

// Known reports whether the CRDs cover apiVersion/kind.
func (c *CRDs) Known(apiVersion, kind string) bool {
	_, ok := c.byKind[apiVersion+"/"+kind]
	return ok
}

// Validate checks one object (decoded YAML) and returns its problems: schema
// violations, fields the schema does not know, and failed CEL rules.
func (c *CRDs) Validate(obj map[string]any) []string {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	s, ok := c.byKind[apiVersion+"/"+kind]
	if !ok {
		return []string{fmt.Sprintf("no CRD for %s %s", apiVersion, kind)}
	}
	var out []string
	for _, e := range validation.ValidateCustomResource(nil, obj, s.validator) {
		out = append(out, e.Error())
	}
	pruned := runtime.DeepCopyJSON(obj)
	for _, p := range pruning.PruneWithOptions(pruned, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
		out = append(out, "unknown field "+p)
	}
	errs, _ := s.cel.Validate(context.Background(), nil, s.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	for _, e := range errs {
		out = append(out, e.Error())
	}
	slices.Sort(out)
	return out
}
