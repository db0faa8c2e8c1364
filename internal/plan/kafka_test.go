package plan

import (
	"testing"

	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestStrimziKafkaVersionsCoverEveryRelease: the Kafka versions of the
// Strimzi operator of every base release are known, so that
// checkKafkaVersion checks every kafka_version.
func TestStrimziKafkaVersionsCoverEveryRelease(t *testing.T) {
	for _, r := range generated.BaseReleases {
		v, ok := r.Charts[strimziChart]
		if !ok {
			t.Errorf("base release %s installs no %s chart", r.Ref, strimziChart)
			continue
		}
		if len(strimziKafkaVersions[v]) == 0 {
			t.Errorf("base release %s installs %s %s, whose Kafka versions strimziKafkaVersions does not list (see kafka-versions.yaml at its tag)", r.Ref, strimziChart, v)
		}
	}
}
