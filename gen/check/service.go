package check

import (
	"go/types"
	"strings"

	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// service reads from the Go type of u's service what the generated code
// calls on it: its Validate method, its source override, its
// *existing_secret fields, the Secrets it names as provided. Problems are reported at the descriptor's key
// at, which names the service.
func (c *checker) service(u *Unit, at string) {
	m, n := c.in.Model, u.ServiceNode
	if obj, _, _ := types.LookupFieldOrMethod(n.Type, true, m.Config, "Validate"); obj != nil {
		if fn, ok := obj.(*types.Func); ok && isValidate(m, fn.Signature()) {
			u.Validates = true
		} else {
			c.errorf(u.D, at, "%s has a Validate that is not a method Validate(v *config.Validator, path string, c *config.Config), which the load calls for an enabled service", m.GoTypeString(n.Type))
		}
	}
	implements := func(name string) bool {
		iface, ok := m.Config.Scope().Lookup(name).(*types.TypeName)
		return ok && types.Implements(n.Type, iface.Type().Underlying().(*types.Interface))
	}
	u.Sourced = implements("SourcedService")
	u.Provides = implements("ProvidedSecrets")
	for _, f := range n.Children {
		if !strings.HasSuffix(f.JSON, "existing_secret") {
			continue
		}
		if f.Kind != catalog.KindString || f.Ptr {
			c.errorf(u.D, at, "%s.%s names a Secret outside the repository: it must be a string, not %s", n.Path, f.JSON, m.GoTypeString(f.Type))
			continue
		}
		u.ExistingSecrets = append(u.ExistingSecrets, f)
	}
}

// isValidate reports whether sig is that of
// Validate(v *config.Validator, path string, c *config.Config).
func isValidate(m *model.Model, sig *types.Signature) bool {
	ptrTo := func(name string) types.Type {
		if tn, ok := m.Config.Scope().Lookup(name).(*types.TypeName); ok {
			return types.NewPointer(tn.Type())
		}
		return nil
	}
	p := sig.Params()
	return p.Len() == 3 && sig.Results().Len() == 0 && !sig.Variadic() &&
		types.Identical(p.At(0).Type(), ptrTo("Validator")) &&
		types.Identical(p.At(1).Type(), types.Typ[types.String]) &&
		types.Identical(p.At(2).Type(), ptrTo("Config"))
}
