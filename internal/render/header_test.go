package render

import (
	"strings"
	"testing"
)

// TestHeaderNames: whatever characters a config's file name has (one that
// spells a header's hash too), the header stays one line that ownership
// reads back, with or without a fingerprint.
func TestHeaderNames(t *testing.T) {
	names := []string{".k8s-dev-config.yaml", ".k8s dev-config.yaml", ".k8s\ndev-config.yaml", `."quoted"-config.yaml`, ".k8s-dév\u2028-config.yaml", "a\\b",
		"x sha256:0000000000000000 y", "sha256:ffffffffffffffff"}
	for _, name := range names {
		for _, fp := range []string{"", strings.Repeat("ab", 32)} {
			data := withSOPSHeader(name, "loki", []byte("kind: Secret\n"), fp)
			if st, unit := ownership(data); st != Owned || unit != "loki" || headerFingerprint(data) != fp {
				t.Errorf("%q: %v %q, fingerprint %q\n%s", name, st, unit, headerFingerprint(data), data)
			}
		}
	}
}
