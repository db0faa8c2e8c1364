package toolcheck

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
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
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
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

// ServiceCRDs are the CRDs of the other custom resources overlay templates
// write, from the module of their project at the version the base
// repository installs (release 2026.01): MetalLB's chart 0.15.2,
// cert-manager's v1.18.2, and Envoy Gateway's chart, which the base follows
// at its latest build (v1.9.1 here, the newest release on the module proxy)
// and which installs the EnvoyProxy and SecurityPolicy CRDs and the Gateway API CRDs it bundles
// (v1.6.1, experimental channel); and the Prometheus Operator's, v0.85.0, which
// kube-prometheus-stack 77.6.0 installs.
var ServiceCRDs = []crdSource{
	{Module: "go.universe.tf/metallb", Version: "v0.15.2", Files: []string{
		"config/crd/bases/metallb.io_ipaddresspools.yaml",
		"config/crd/bases/metallb.io_l2advertisements.yaml",
	}},
	{Module: certManager, Version: certManagerVersion, Files: []string{
		"deploy/crds/crd-clusterissuers.yaml",
		"deploy/crds/crd-certificates.yaml",
	}},
	{Module: "github.com/envoyproxy/gateway", Version: "v1.9.1", Files: []string{
		"charts/gateway-helm/charts/crds/crds/gatewayapi-crds.yaml",
		"charts/gateway-helm/charts/crds/crds/generated/gateway.envoyproxy.io_envoyproxies.yaml",
		"charts/gateway-helm/charts/crds/crds/generated/gateway.envoyproxy.io_securitypolicies.yaml",
	}},
	{Module: "github.com/prometheus-operator/prometheus-operator", Version: "v0.85.0", Files: []string{
		"example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml",
	}},
}

// ChartSchema is the values.schema.json of a Helm chart that a unit's
// HelmRelease installs and whose values an overlay template writes, from
// the chart's project module at the version the base repository pins.
type ChartSchema struct {
	// Unit is the overlay unit writing services/<Unit>/helm-values/override-values.yaml.
	Unit    string
	Module  string
	Version string
	File    string
}

// ChartSchemas are the charts whose projects ship their schema in a Go
// module: cert-manager's (v1.18.2 at base 2026.01). MetalLB's values are
// empty; Envoy Gateway's chart has no schema; the other charts are not Go
// modules.
var ChartSchemas = []ChartSchema{
	{Unit: "cert-manager", Module: certManager, Version: certManagerVersion, File: "deploy/charts/cert-manager/values.schema.json"},
}

// cert-manager's module, at the chart version the base pins: its CRDs and
// its chart's schema come from the same release.
const (
	certManager        = "github.com/cert-manager/cert-manager"
	certManagerVersion = "v1.18.2"
)

// Read returns the schema's text.
func (s ChartSchema) Read() ([]byte, error) {
	dir, err := moduleDir(s.Module, s.Version)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(dir, s.File))
}

type schema struct {
	validator  validation.SchemaValidator
	structural *structuralschema.Structural
	cel        *cel.Validator
	// deprecated is the warning the API server gives for the version, ""
	// when it is not deprecated.
	deprecated string
}

// CRDs validates objects against a set of CRDs.
type CRDs struct {
	byKind map[string]*schema // apiVersion + "/" + kind
	// clusterScoped says, by group + "/" + kind, whether the kind's
	// objects have no namespace (scope Cluster).
	clusterScoped map[string]bool
}

var (
	crdsOnce sync.Once
	crds     *CRDs
	crdsErr  error
)

// Load returns the validator of the Flux CRDs, the ServiceCRDs and the
// CRDs kept in crds/, loaded once per process.
func Load() (*CRDs, error) {
	crdsOnce.Do(func() {
		crds, crdsErr = load(slices.Concat(FluxCRDs, ServiceCRDs))
		if crdsErr == nil {
			crdsErr = crds.addKept()
		}
	})
	return crds, crdsErr
}

// keptCRDs are the CRDs of projects that are not Go modules (Strimzi's,
// rbac-manager's chart's), kept in the project: crds/README.md says where
// each comes from.
//
//go:embed crds/*.yaml crds/*.yaml.gz
var keptCRDs embed.FS

// addKept adds the CRDs of keptCRDs, gunzipping the .gz ones.
func (c *CRDs) addKept() error {
	names, err := fs.Glob(keptCRDs, "crds/*")
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := keptCRDs.ReadFile(name)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".gz") {
			r, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if data, err = io.ReadAll(r); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		if err := c.Add(data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func load(sources []crdSource) (*CRDs, error) {
	c := &CRDs{byKind: map[string]*schema{}, clusterScoped: map[string]bool{}}
	for _, src := range sources {
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

// Add registers every served version of each CRD of a YAML stream.
func (c *CRDs) Add(data []byte) error {
	for _, doc := range strings.Split("\n"+string(data), "\n---") {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := sigsyaml.Unmarshal([]byte(doc), &crd); err != nil {
			return err
		}
		if crd.Kind != "CustomResourceDefinition" {
			continue
		}
		if err := c.add(&crd); err != nil {
			return fmt.Errorf("%s: %w", crd.Name, err)
		}
	}
	return nil
}

func (c *CRDs) add(crd *apiextensionsv1.CustomResourceDefinition) error {
	c.clusterScoped[crd.Spec.Group+"/"+crd.Spec.Names.Kind] = crd.Spec.Scope == apiextensionsv1.ClusterScoped
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
		sc := &schema{validator: sv, structural: st, cel: cel.NewValidator(st, true, celconfig.PerCallLimit)}
		if v.Deprecated {
			// The API server's default when the CRD gives no warning.
			sc.deprecated = fmt.Sprintf("%s/%s %s is deprecated", crd.Spec.Group, v.Name, crd.Spec.Names.Kind)
			if v.DeprecationWarning != nil {
				sc.deprecated = *v.DeprecationWarning
			}
		}
		c.byKind[key] = sc
	}
	return nil
}

// Scopes returns, for each kind of the CRDs by group + "/" + kind, whether
// its objects are cluster-scoped.
func (c *CRDs) Scopes() map[string]bool { return maps.Clone(c.clusterScoped) }

// Known reports whether the CRDs cover apiVersion/kind.
func (c *CRDs) Known(apiVersion, kind string) bool {
	_, ok := c.byKind[apiVersion+"/"+kind]
	return ok
}

// Validate checks one object (decoded YAML) and returns its problems: schema
// violations, fields the schema does not know, failed CEL rules, and a
// version its CRD deprecates (the API server takes it with a warning, and
// a later release of the CRD drops it). As the
// API server does, it reads whole numbers as integers and applies the
// schema's defaults first, since CEL rules read defaulted fields.
func (c *CRDs) Validate(decoded map[string]any) []string {
	apiVersion, _ := decoded["apiVersion"].(string)
	kind, _ := decoded["kind"].(string)
	s, ok := c.byKind[apiVersion+"/"+kind]
	if !ok {
		return []string{fmt.Sprintf("no CRD for %s %s", apiVersion, kind)}
	}
	obj := integers(decoded).(map[string]any)
	defaulting.Default(obj, s.structural)
	var out []string
	if s.deprecated != "" {
		out = append(out, "deprecated version: "+s.deprecated)
	}
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

// integers copies a decoded value with its whole float64 numbers as int64,
// as the API server's decoder reads them.
func integers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = integers(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = integers(x)
		}
		return out
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v)
		}
	}
	return v
}
