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
// *existing_secret field of the units' services, and the certificates of
// the gateway's HTTPS listeners when it has no issuer (you provide them),
// in the unit's namespace (where each of those fields' docs puts its
// Secret): what verify's simulation takes a reference to as met.
func ExistingSecrets(plan *Plan, c *config.Config) []types.NamespacedName {
	out := slices.Clone(plan.ExistingSecrets)
	for _, st := range plan.Units {
		if !st.Active || st.Unit.Service == "" {
			continue
		}
		if g := c.OpenCenter.Services.Gateway; st.Unit.Service == "gateway" && g.Issuer == "" {
			for _, l := range g.Listeners {
				if l.TLSSecretName != "" {
					out = append(out, types.NamespacedName{Namespace: st.Unit.NamespaceOf(c), Name: l.TLSSecretName})
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

// ExistingClusterIssuers are the cert-manager ClusterIssuers outside the
// repository that config c names: the issuer of a cert-manager installed
// outside opencenter (adoption_mode external), which the gateway and
// harbor reference as they would the rendered one.
func ExistingClusterIssuers(plan *Plan, c *config.Config) []string {
	cm := c.OpenCenter.Services.CertManager
	if !external(plan, "cert-manager") || cm.Issuer == config.CertIssuerNone || cm.IssuerName == "" {
		return nil
	}
	return []string{cm.IssuerName}
}

// external reports whether unit is installed outside opencenter in the plan.
func external(plan *Plan, unit string) bool {
	for _, st := range plan.Units {
		if st.Unit.Name == unit {
			return st.External
		}
	}
	return false
}
