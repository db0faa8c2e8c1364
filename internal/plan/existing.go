package plan

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/config"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// ExistingSecrets are the Secrets outside the repository that config c
// names for the plan's active units: the plan's values Secrets, every
// *existing_secret field of the units' services, and those their config
// types name as provided (config.ProvidedSecrets: the gateway's listener
// certificates when it has no issuer),
// in the unit's namespace (where each of those fields' docs puts its
// Secret): what verify's simulation takes a reference to as met.
func ExistingSecrets(plan *Plan, c *config.Config) []types.NamespacedName {
	out := slices.Clone(plan.ExistingSecrets)
	for _, st := range plan.Units {
		if !st.Active || st.Unit.Service == "" {
			continue
		}
		if svc, _ := st.Unit.Data(c); svc != nil {
			if p, ok := svc.(config.ProvidedSecrets); ok {
				for _, name := range p.ProvidedSecrets() {
					out = append(out, types.NamespacedName{Namespace: st.Unit.NamespaceOf(c), Name: name})
				}
			}
		}
		prefix := st.Unit.ServicePath() + "."
		for _, f := range generated.Fields {
			key, ok := strings.CutPrefix(f.Path, prefix)
			if !ok || strings.Contains(key, ".") || !strings.HasSuffix(key, "existing_secret") {
				continue
			}
			v, _ := f.Get(c)
			if name, _ := v.(string); name != "" {
				out = append(out, types.NamespacedName{Namespace: st.Unit.NamespaceOf(c), Name: name})
			}
		}
	}
	return out
}
