package plan

import (
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// checkAccepts reports a config value that a chart of u does not run, at
// the version the unit's base release installs (the descriptors' accepts:
// kafka-cluster's Kafka versions). The generator holds every indexed
// release to the version the facts were read off; a release that installs
// the chart at another version, or not at all, is not checked.
func (b *builder) checkAccepts(u *catalog.Unit) {
	rel := b.baseRelease(u)
	if rel == nil {
		return
	}
	for _, ch := range u.Charts {
		if len(ch.Accepts) == 0 || rel.Charts[ch.Chart] != ch.Version {
			continue
		}
		for _, a := range ch.Accepts {
			v := a.Get(b.c)
			if v == "" || slices.Contains(a.Values, v) {
				continue
			}
			b.diags = append(b.diags, b.f.Diag(a.Field,
				"%q is not %s in base release %s (chart %s %s): expected one of %s, or empty for its default (%s)",
				v, a.What, rel.Ref, ch.Chart, ch.Version, strings.Join(a.Values, ", "), a.Values[len(a.Values)-1]))
		}
	}
}
