package plan

import (
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/config"
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
		if st.Unit.ExistingSecrets == nil {
			continue
		}
		for _, name := range st.Unit.ExistingSecrets(c) {
			if name != "" {
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
