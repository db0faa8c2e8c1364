package config

import (
	"crypto/sha1"
	"encoding/base64"
	"strings"
	"testing"
)

// TestHtpasswdSHA: htpasswdSHA takes what htpasswd -s writes (the SHA-1 of
// the password, base64, after {SHA}), one user a line, and names the
// first line Envoy Gateway or Envoy would refuse.
func TestHtpasswdSHA(t *testing.T) {
	sha := func(user, pw string) string {
		sum := sha1.Sum([]byte(pw))
		return user + ":{SHA}" + base64.StdEncoding.EncodeToString(sum[:])
	}
	cases := []struct {
		lines []string
		line  int // the first refused, 0 for none
	}{
		{[]string{sha("alerts", "a long password")}, 0},
		{[]string{sha("alerts", "a"), sha("oncall", "b"), ""}, 0}, // a final line break
		{[]string{sha("alerts", "a"), sha("alerts", "b")}, 2},
		{[]string{sha("", "a")}, 1},
		{[]string{"alerts"}, 1},
		{[]string{sha("alerts", "a"), "oncall:$2y$05$" + strings.Repeat("a", 53)}, 2},
		{[]string{"alerts:$apr1$salt$hash"}, 1},
		{[]string{"alerts:{SHA}YWJj"}, 1}, // base64 of three bytes
		{[]string{"alerts:{SHA}not base64!"}, 1},
		{[]string{" " + sha("alerts", "a")}, 1},
		{[]string{sha("alerts", "a") + "\r"}, 1},
		{[]string{sha("alerts", "a"), "", sha("oncall", "b")}, 2},
		{[]string{"# " + sha("alerts", "a")}, 1},
	}
	for _, c := range cases {
		s := strings.Join(c.lines, "\n")
		if line, why := htpasswdSHA(s); line != c.line {
			t.Errorf("%q: line %d (%s), want %d", s, line, why, c.line)
		}
	}
}
