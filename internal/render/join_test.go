package render

import (
	"path"
	"testing"
)

func TestJoinClean(t *testing.T) {
	for _, dir := range []string{"services/keycloak", "a", ""} {
		for _, r := range []string{"x.yaml", "sub/x.yaml", "../base/x", "./x", "x/", "x//y", "x/./y", "x/../y", "..", ".", "/abs", "x/.", "x/..", "", ".hidden", "a..b"} {
			if got, want := joinClean(dir, r), path.Clean(path.Join(dir, r)); got != want {
				t.Errorf("joinClean(%q, %q) = %q, want %q", dir, r, got, want)
			}
		}
	}
}
