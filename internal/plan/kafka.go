package plan

import (
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// strimziChart is the chart of the Strimzi operator in the base.
const strimziChart = "strimzi-kafka-operator"

// strimziKafkaVersions are the Kafka versions each release of the Strimzi
// operator runs, by the version of its chart: the entries of its
// kafka-versions.yaml (at the release's tag) marked supported, the last its
// default. The operator refuses a Kafka resource of any other version.
var strimziKafkaVersions = map[string][]string{
	"0.50.0": {"4.0.0", "4.0.1", "4.1.0", "4.1.1"},
}

// checkKafkaVersion reports a kafka_version that the Strimzi operator of
// the unit's base release does not run.
func (b *builder) checkKafkaVersion(u *catalog.Unit) {
	kc := b.c.OpenCenter.Services.KafkaCluster
	rel := b.baseRelease(u)
	if kc == nil || kc.KafkaVersion == "" || rel == nil {
		return
	}
	strimzi := rel.Charts[strimziChart]
	versions := strimziKafkaVersions[strimzi] // TestStrimziKafkaVersionsCoverEveryRelease
	if len(versions) > 0 && !slices.Contains(versions, kc.KafkaVersion) {
		b.diags = append(b.diags, b.f.Diag(configPath(u)+".kafka_version",
			"%q is not a Kafka version the Strimzi operator of base release %s (chart "+strimziChart+" %s) runs: expected one of %s, or empty for its default (%s)",
			kc.KafkaVersion, rel.Ref, strimzi, strings.Join(versions, ", "), versions[len(versions)-1]))
	}
}
