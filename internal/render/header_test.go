package render

import "testing"

// TestHeaderNames: whatever characters a config's file name has, the header
// stays one line that ownership reads back.
func TestHeaderNames(t *testing.T) {
	for _, name := range []string{".k8s-dev-config.yaml", ".k8s dev-config.yaml", ".k8s\ndev-config.yaml", `."quoted"-config.yaml`, ".k8s-dév\u2028-config.yaml", "a\\b"} {
		data := withSOPSHeader(name, "loki", []byte("kind: Secret\n"), "")
		if st, unit := ownership(data); st != Owned || unit != "loki" {
			t.Errorf("%q: %v %q\n%s", name, st, unit, data)
		}
	}
}
