package config

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestMatchFormatMatchesPatterns: for every format, MatchFormat says what
// the format's pattern says, over hand-picked edge cases and 200,000 random
// strings drawn from the characters that matter to the formats.
func TestMatchFormatMatchesPatterns(t *testing.T) {
	edge := []string{"", "a", "-", "a-", "-a", "a-b", "a..b", "a.", ".a", "*.", "*.a", "*.*.a", "a.*.b", "A", "a_b",
		strings.Repeat("a", 64), "0", "00", "1.", ".5", "1.5", "1.5Gi", "10Gi", "10gi", "1Ki", "1K", "1e3", "1m", "1ms", "1mss", "1msm",
		"1h30m", "1.5h", "1.h", "h", "15d", "2w", "1y", "1.5d", "10", "1m1", "é", "a\n", "1m\n", "1s ", " 1s"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abz09-.*_AKMGTPEikmsdhwy "
	tokens := []string{"0", "9", "12", ".", ".5", "ms", "s", "m", "h", "d", "w", "y", "Ki", "Gi", "Ei", "k", "M", "E",
		"a", "z", "ab", "-", "a-b", "*.", ".", "..", "x.y", "A"}
	for f, p := range Formats {
		re := regexp.MustCompile(p)
		check := func(s string) {
			if s == "" {
				return // unset: never checked against a format
			}
			if got, want := matchSyntax(f, s), re.MatchString(s); got != want {
				t.Fatalf("%s %q: matchSyntax %v, pattern %v", f, s, got, want)
			}
		}
		for _, s := range edge {
			check(s)
		}
		for range 200_000 / len(Formats) {
			b := make([]byte, r.IntN(10))
			for i := range b {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
			check(string(b))
			// Strings made of the formats' own parts, so that many match.
			var w strings.Builder
			for range 1 + r.IntN(5) {
				w.WriteString(tokens[r.IntN(len(tokens))])
			}
			check(w.String())
		}
	}
	matched := 0
	for f := range handMatched {
		for range 1000 {
			var w strings.Builder
			for range 1 + r.IntN(5) {
				w.WriteString(tokens[r.IntN(len(tokens))])
			}
			if MatchFormat(f, w.String()) {
				matched++
			}
		}
	}
	if matched < 100*len(handMatched) {
		t.Errorf("only %d of %d generated strings match their format: the comparison sees too few matches", matched, 1000*len(handMatched))
	}
	if MatchFormat("no-such-format", "x") {
		t.Error("an unknown format matched")
	}
}

func TestFluxURL(t *testing.T) {
	for in, want := range map[string]string{
		"git@github.com:org/repo.git":         "ssh://git@github.com/org/repo.git",
		"ssh://git@github.com/org/repo.git":   "ssh://git@github.com/org/repo.git",
		"https://git.example.com/org/r.git":   "https://git.example.com/org/r.git",
		"deploy@git.example.com:team/ops.git": "ssh://deploy@git.example.com/team/ops.git",
	} {
		if got := FluxURL(in); got != want {
			t.Errorf("FluxURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGitURLFormat: a Git URL passes when Flux's source-controller can read
// the URL FluxURL makes of it with net/url: a host, no blank, valid escapes.
func TestGitURLFormat(t *testing.T) {
	for s, want := range map[string]bool{
		"git@github.com:org/repo.git": true, "ssh://git@github.com/org/repo.git": true, "ssh://git@host:2222/org/repo.git": true,
		"https://git.example.com/org/r.git": true, "https://git.example.com/org/r%20x.git": true,
		"https:///": false, "ssh://git@": false, "ssh://git@/org/repo.git": false, "https://host/a b.git": false,
		"https://host/%zz.git": false, "ssh://host:port/x": false, "git@host:a b": false, "git@host:%zz": false,
	} {
		if got := MatchFormat("git-url", s); got != want {
			t.Errorf("git-url %q: %v, want %v", s, got, want)
		}
	}
}
