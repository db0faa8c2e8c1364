package plan

import (
	"path"
	"testing"
)

// TestJoinClean holds joinClean and pathBuf.join to path.Clean(path.Join()).
func TestJoinClean(t *testing.T) {
	var buf pathBuf
	for _, dir := range []string{"services/keycloak", "a", "", "."} {
		for _, r := range []string{"x.yaml", "sub/x.yaml", "../base/x", "./x", "./x/y", "./../x", "././x", "./", "x/", "x//y", "x/./y", "x/../y",
			"..", ".", "/abs", "x/.", "x/..", "", ".hidden", "a..b", "./.hidden", "./x/"} {
			want := path.Clean(path.Join(dir, r))
			if got := joinClean(dir, r); got != want {
				t.Errorf("joinClean(%q, %q) = %q, want %q", dir, r, got, want)
			}
			if got := string(buf.join(dir, r)); got != want {
				t.Errorf("pathBuf.join(%q, %q) = %q, want %q", dir, r, got, want)
			}
		}
	}
}
