package check

import "github.com/opencenter-dev/opencenter/gen/model"

// Catalog is what the checker hands the emitters: the config model, the
// checked units, and what the descriptors and tags add to the model's
// fields, kept beside the model so that the model is never changed (no
// copy of it is needed either).
type Catalog struct {
	// Model is the config model, read-only.
	Model *model.Model
	// Units are the checked units, sorted by name.
	Units        []*Unit
	requirements map[*model.Node]*model.Requirement
	defaults     map[*model.Node]string
}

// NewCatalog joins a model, its resolved requirements (Requirements) and the
// checked units. A service's namespace field defaults to its descriptor's
// namespace, for ApplyDefaults, the field index and the schema.
func NewCatalog(m *model.Model, units []*Unit, requirements map[*model.Node]*model.Requirement) *Catalog {
	c := &Catalog{Model: m, Units: units, requirements: requirements, defaults: map[*model.Node]string{}}
	for _, u := range units {
		if u.ServiceNode == nil {
			continue
		}
		if ns := u.ServiceNode.Child("namespace"); ns != nil && ns.Default == "" {
			c.defaults[ns] = u.Namespace
		}
	}
	return c
}

// Default is a field's default: its struct tag's, or the catalog's.
func (c *Catalog) Default(n *model.Node) string {
	if d, ok := c.defaults[n]; ok {
		return d
	}
	return n.Default
}

// Requirement is a field's resolved required_when, nil when it has none.
func (c *Catalog) Requirement(n *model.Node) *model.Requirement { return c.requirements[n] }
