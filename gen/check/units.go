package check

import (
	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/gen/templates"
)

// Unit is a checked unit, standard pattern expanded.
type Unit struct {
	D           *descriptor.Loaded
	Name        string
	Layer       string
	Description string
	// ServiceKey is the config key of the gating service; ServiceNode its config node.
	ServiceKey  string
	ServiceNode *model.Node
	// SecretsNode is the node of secrets.<layer>.<key>, when the service has secrets.
	SecretsNode  *model.Node
	Namespace    string
	Gate         []*Cond
	ActiveWith   []string
	Requires     []string
	Sources      []descriptor.Source
	FluxUnits    []FluxUnit
	Root         string
	Files        []File
	HelmRelease  string
	ValuesSecret string
	// Releases lists the base releases holding every base path the unit's
	// Flux units apply; nil when the unit applies no base path.
	Releases []string
	// Charts, Logins: the descriptor's, checked (facts.go).
	Charts []Chart
	Logins []Login
	// Validates is true when the service's type has the method
	// Validate(v *config.Validator, path string, c *config.Config), which
	// the load calls for an enabled service.
	Validates bool
	// Sourced is true when the service's type is a config.SourcedService:
	// it can give a source override.
	Sourced bool
	// ExistingSecrets are the service's string fields named *existing_secret,
	// each naming a Secret outside the repository.
	ExistingSecrets []*model.Node
	// Provides is true when the service's type is a config.ProvidedSecrets:
	// it names Secrets outside the repository that something else provides.
	Provides bool
}

// FluxUnit is a checked Flux unit.
type FluxUnit struct {
	descriptor.FluxUnit
	When *Cond
	// ValuesFrom are the unit's values_from, on its base Flux unit.
	ValuesFrom []ValuesFrom
	// ReplaceCRDs is set on a standard unit's base Flux unit when its
	// chart keeps CRDs in crds/ that nothing upgrades.
	ReplaceCRDs bool
	at          string // YAML path in the descriptor, "" for pattern parts
}

// ValuesFrom is a checked values_from entry: Secret, or the string field
// Field names it.
type ValuesFrom struct {
	Secret string
	Field  *Cond
	When   *Cond
}

// File is a checked overlay file.
type File struct {
	// Out is the output path relative to the unit root.
	Out string
	// Template is the path under descriptors/files ("" for builtins).
	Template   string
	IsTemplate bool
	// Compiled is the template compiled to Go, for templates.
	Compiled *templates.Output
	Builtin  string
	Secret   bool
	When     *Cond
	at       string
}

// Cond is a resolved condition.
type Cond struct {
	Text  string
	Chain []*model.Node
	Keys  []string // map keys per chain element ("" for struct fields)
	Op    descriptor.Operator
	Value string
}
