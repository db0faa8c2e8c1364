package descriptor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// APIVersion and Kind identify a descriptor.
const (
	APIVersion = "opencenter.dev/v1alpha1"
	Kind       = "OverlayUnit"
)

// Descriptor is one overlay unit as written in descriptors/<name>.yaml.
type Descriptor struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Name is the unit's unique name.
	Name string `json:"name"`
	// Description is one line about the unit, shown by `opencenter units`.
	Description string `json:"description,omitempty"`
	// Layer is services, managed-services, customer-managed or cluster.
	Layer string `json:"layer"`
	// Service gates the unit on opencenter.services.<service>.enabled.
	Service string `json:"service,omitempty"`
	// ManagedService gates the unit on opencenter.managed_services.<managed_service>.enabled.
	ManagedService string `json:"managed_service,omitempty"`
	// Namespace is the service's default namespace (the base repo's).
	Namespace string `json:"namespace,omitempty"`
	// EnabledWhen is ANDed with the gate.
	EnabledWhen *Condition `json:"enabled_when,omitempty"`
	// ActiveWith makes the unit active when any of the named units, or any unit of the named layer, is.
	ActiveWith *ActiveWith `json:"active_with,omitempty"`
	// Requires names units that must be active when this one is.
	Requires []string `json:"requires,omitempty"`
	// Standard expands the standard service pattern; explicit parts override it by name.
	Standard bool `json:"standard,omitempty"`
	// HelmRelease is the base HelmRelease of a standard unit (default: the unit name).
	HelmRelease string `json:"helm_release,omitempty"`
	// ValuesSecret is the override Secret the base HelmRelease reads (default: <helm_release>-values-override).
	ValuesSecret string `json:"values_secret,omitempty"`
	// ValuesFrom are Secrets whose key values.yaml a standard unit's base
	// HelmRelease reads after its override Secret: values too secret for
	// the override, which is plaintext in git. The render adds them to the
	// HelmRelease's valuesFrom with a Flux patch on <unit>-base.
	ValuesFrom []ValuesFrom `json:"values_from,omitempty"`
	// Sources are the GitRepository objects the unit emits.
	Sources []Source `json:"sources,omitempty"`
	// FluxUnits are the Flux Kustomizations the unit emits.
	FluxUnits []FluxUnit `json:"flux_units,omitempty"`
	// Overlay is the unit's overlay directory and files.
	Overlay *Overlay `json:"overlay,omitempty"`
	// Charts are what is known of the charts the unit's HelmReleases
	// install (facts.go).
	Charts []Chart `json:"charts,omitempty"`
	// Services are the Services the unit's charts or operators create that
	// rendered files name.
	Services []ServiceMaker `json:"services,omitempty"`
	// Logins are the hostnames of the unit's pages that ask for a login.
	Logins []Login `json:"logins,omitempty"`
	// Examples are configs the tests render for the unit's fields and modes.
	Examples []Example `json:"examples,omitempty"`
}

// ActiveWith activates a unit together with others.
type ActiveWith struct {
	Units []string `json:"units,omitempty"`
	Layer string   `json:"layer,omitempty"`
}

// Condition is {field, operator, value}.
type Condition struct {
	Field    string   `json:"field"`
	Operator Operator `json:"operator"`
	Value    string   `json:"value,omitempty"`
}

// Operator is what a condition tests of its field.
type Operator string

// The operators of a condition.
const (
	OpEquals    Operator = "equals"     // the field equals the value
	OpNotEquals Operator = "not_equals" // the field does not equal the value
	OpExists    Operator = "exists"     // the field is set
	OpTrue      Operator = "true"       // a bool is true
	OpFalse     Operator = "false"      // a bool is false
)

// Operators lists every operator, sorted.
var Operators = []string{string(OpEquals), string(OpExists), string(OpFalse), string(OpNotEquals), string(OpTrue)}

// ValuesFrom is one Secret of values, in the unit's namespace, named by
// secret or by the config's string field secret_field (when that is set).
type ValuesFrom struct {
	Secret      string     `json:"secret,omitempty"`
	SecretField string     `json:"secret_field,omitempty"`
	When        *Condition `json:"when,omitempty"`
}

// Source is a GitRepository.
type Source struct {
	Name    string    `json:"name"`
	Repo    string    `json:"repo"`
	Include []Include `json:"include,omitempty"`
}

// Include copies a path of another source into this one.
type Include struct {
	Source string `json:"source"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// FluxUnit is a Flux Kustomization.
type FluxUnit struct {
	Name            string        `json:"name"`
	Source          string        `json:"source,omitempty"`
	Path            string        `json:"path,omitempty"`
	TargetNamespace string        `json:"target_namespace,omitempty"`
	DependsOn       []string      `json:"depends_on,omitempty"`
	Wait            bool          `json:"wait,omitempty"`
	HealthChecks    []HealthCheck `json:"health_checks,omitempty"`
	When            *Condition    `json:"when,omitempty"`
	// Provides lists the API groups whose CRDs the Flux unit installs.
	Provides []string `json:"provides,omitempty"`
	// Needs lists the API groups of custom resources the Flux unit creates
	// without a manifest its build shows: its HelmRelease's chart, with the
	// base's values. The unit is ordered after their provider.
	Needs []string `json:"needs,omitempty"`
	// Wants lists API groups whose CRDs the Flux unit's HelmRelease's
	// chart looks for when it starts, if the cluster has them: the unit is
	// ordered after their provider when one is active, and not otherwise.
	Wants []string `json:"wants,omitempty"`
	// Only lists the kinds of the path's objects the Flux unit applies; the
	// render takes the others out of its build with Flux patches, and the
	// Flux unit that applies the rest of the path leaves these to it. Empty
	// means every object.
	Only []string `json:"only,omitempty"`
}

// NoTargetNamespace, as a Flux unit's target_namespace, drops the standard
// pattern's target namespace: the base places its objects itself.
const NoTargetNamespace = "none"

// HealthCheck names an object Flux waits for.
type HealthCheck struct {
	APIVersion string `json:"api_version"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
}

// Overlay is the unit's overlay directory.
type Overlay struct {
	// Root is the directory relative to the overlay root ("" for the root itself).
	Root  string `json:"root,omitempty"`
	Files []File `json:"files,omitempty"`
}

// File is an overlay file: a path under descriptors/files/<unit>/ (x.yaml.tpl
// is a template rendering x.yaml), or a builtin.
type File struct {
	Path    string     `json:"path"`
	Builtin string     `json:"builtin,omitempty"`
	When    *Condition `json:"when,omitempty"`
}

// Loaded is a descriptor with the positions of its keys.
type Loaded struct {
	Descriptor
	// File is the descriptor's path relative to the module root, e.g. descriptors/keycloak.yaml.
	File string
	Pos  *yamlfile.Positions
}

// Diag returns a diagnostic at YAML path p of the descriptor.
func (l *Loaded) Diag(p, format string, args ...any) diag.Diag {
	d := l.Pos.Diag(p, format, args...)
	d.Path = "" // descriptor messages name their key themselves
	return d
}

// LoadDir loads every descriptors/*.yaml below root, sorted by file name,
// and names the descriptors (by file base name, which is their unit name)
// that failed to decode. On error it also returns what it could load.
func LoadDir(root, dir string) ([]*Loaded, []string, error) {
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil, nil, fmt.Errorf("reading descriptors: %w", err)
	}
	var out []*Loaded
	var failed []string
	var diags diag.List
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		rel := filepath.ToSlash(filepath.Join(dir, e.Name()))
		l := &Loaded{File: rel}
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			diags = append(diags, diag.Diag{File: rel, Msg: err.Error()})
			continue
		}
		pos, err := yamlfile.Decode(rel, data, &l.Descriptor)
		if err != nil {
			diags = append(diags, err.(diag.List)...)
			failed = append(failed, strings.TrimSuffix(e.Name(), ".yaml"))
			continue
		}
		l.Pos = pos
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b *Loaded) int { return strings.Compare(a.File, b.File) })
	return out, failed, diags.Err()
}

// Templates lists every file under dir/files below root, as slash paths relative to dir/files.
func Templates(root, dir string) ([]string, error) {
	return list(filepath.Join(root, dir, "files"))
}

// Schemas lists every file in a unit's folder under dir/schemas below
// root (the kept CRDs and values schemas of its charts), as slash paths
// relative to dir/schemas: <unit>/<file>. Files beside the folders (a
// README) are no unit's.
func Schemas(root, dir string) ([]string, error) {
	all, err := list(filepath.Join(root, dir, "schemas"))
	return slices.DeleteFunc(all, func(p string) bool { return !strings.Contains(p, "/") }), err
}

// list lists the files below base, sorted; none when base is missing.
func list(base string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == base {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(out)
	return out, err
}
