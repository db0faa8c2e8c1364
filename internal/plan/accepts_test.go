package plan

import (
	"slices"
	"testing"

	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestAcceptsCoverEveryRelease: every base release holding a unit whose
// chart limits a config field (accepts) installs the chart at the version
// the limits were read off, so that checkAccepts checks the field wherever
// the unit is rendered.
func TestAcceptsCoverEveryRelease(t *testing.T) {
	n := 0
	for _, u := range generated.Units {
		for _, ch := range u.Charts {
			if len(ch.Accepts) == 0 {
				continue
			}
			n++
			for _, r := range generated.BaseReleases {
				if u.Releases != nil && !slices.Contains(u.Releases, r.Ref) {
					continue
				}
				if v := r.Charts[ch.Chart]; v != ch.Version {
					t.Errorf("base release %s installs chart %s at %q, and unit %s's accepts were read off %s: read the chart again", r.Ref, ch.Chart, v, u.Name, ch.Version)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no chart of the catalog limits a config field: checkAccepts checks nothing")
	}
}
