package generate

import (
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestServiceTypeErrors: what the generated code calls on a service's Go
// type must be there as it calls it, or generation fails at the
// descriptor's service key: a Validate method of another signature (which
// the load would never call) and an *existing_secret field that is not a
// string.
func TestServiceTypeErrors(t *testing.T) {
	t.Run("validate", func(t *testing.T) {
		m := freshModel(t)
		n := find(m.Root, "opencenter.services.keycloak")
		// A type like Keycloak whose Validate takes nothing.
		fields := n.Type.(*types.Pointer).Elem().Underlying()
		named := types.NewNamed(types.NewTypeName(token.NoPos, m.Config, "Keycloak", nil), fields, nil)
		recv := types.NewVar(token.NoPos, m.Config, "s", types.NewPointer(named))
		named.AddMethod(types.NewFunc(token.NoPos, m.Config, "Validate", types.NewSignatureType(recv, nil, nil, nil, nil, false)))
		n.Type = types.NewPointer(named)
		_, err := GenerateWith(testCatalog, m)
		want := "keycloak.yaml:6:1: *config.Keycloak has a Validate that is not a method Validate(v *config.Validator, path string, c *config.Config), which the load calls for an enabled service"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in:\n%v", want, err)
		}
	})
	t.Run("existing secret", func(t *testing.T) {
		m := freshModel(t)
		n := find(m.Root, "opencenter.services.keycloak.admin_existing_secret")
		n.Type, n.Ptr = types.NewPointer(n.Type), true
		_, err := GenerateWith(testCatalog, m)
		want := "keycloak.yaml:6:1: opencenter.services.keycloak.admin_existing_secret names a Secret outside the repository: it must be a string, not *string"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in:\n%v", want, err)
		}
	})
	if _, err := GenerateWith(testCatalog, loadModel(t)); err != nil {
		t.Errorf("the project's own types: %v", err)
	}
}
