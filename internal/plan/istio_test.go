package plan

import (
	"fmt"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/config"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// istioChartProfiles are the profiles the base's Istio charts can install,
// read off istio/istio manifests/charts at 1.28.3 (base, istio-discovery
// and gateway have the same files/profile-<name>.yaml). Each chart's
// templates/zzz_profile.yaml fails with "unknown profile" on any other
// name; there is no default or minimal file, the chart's own values being
// the default. Ambient is left out: its file says the istio-cni and
// ztunnel charts must be deployed too, and the base has neither.
var istioChartProfiles = []string{"demo", "preview", "remote", "stable"}

// TestIstioProfilesExistInCharts: every profile the config accepts renders
// values the charts install, no profile key for default.
func TestIstioProfilesExistInCharts(t *testing.T) {
	var profiles []string
	for _, fl := range generated.Fields {
		if fl.Path == "opencenter.services.istio.profile" {
			profiles = fl.Enum
		}
	}
	if len(profiles) == 0 {
		t.Fatal("no enumeration of istio profiles in the field index")
	}
	for _, profile := range profiles {
		p := planEdited(t, fixtureRepo+"/.k8s-dev-config.yaml", func(c *config.Config) {
			c.OpenCenter.Services.Istio = &config.Istio{Sourced: config.Sourced{ServiceCommon: config.ServiceCommon{Enabled: true}}, Profile: config.IstioProfile(profile)}
		})
		for _, file := range []string{"istio-base-values.yaml", "istiod-values.yaml"} {
			var values map[string]any
			if err := yaml.Unmarshal(fileData(t, p, "services/istio/helm-values/"+file), &values); err != nil {
				t.Fatal(err)
			}
			got, set := values["profile"]
			switch {
			case profile == "default" && set:
				t.Errorf("profile default: %s sets profile %v, which the chart has no file for", file, got)
			case profile != "default" && !slices.Contains(istioChartProfiles, fmt.Sprint(got)):
				t.Errorf("profile %s: %s sets profile %v, not one the charts install (%v)", profile, file, got, istioChartProfiles)
			}
		}
	}
}
