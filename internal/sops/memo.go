package sops

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
)

// memo keeps the results of a pure function for the life of the process,
// for inputs that recur across the files of a render (rules, keys, the
// sops: block's strings). It keeps at most max of them, so that no input
// stream grows it without end; it is safe for concurrent use. Never memo
// a function of decrypted values: the memo would keep them for the life of
// the process (the age keys it holds parsed are what the process reads
// anyway, to decrypt).
type memo[K comparable, V any] struct {
	max  int64
	m    sync.Map // K -> V
	kept atomic.Int64
}

// get returns f(k), computed once while the memo has room; errors are not
// kept.
func (c *memo[K, V]) get(k K, f func(K) (V, error)) (V, error) {
	if v, ok := c.m.Load(k); ok {
		return v.(V), nil
	}
	v, err := f(k)
	if err == nil && c.kept.Add(1) <= c.max {
		c.m.Store(k, v)
	}
	return v, err
}

// patterns are the compiled regular expressions of sops rules.
var patterns = memo[string, *regexp.Regexp]{max: 256}

// Pattern compiles a regular expression of a sops rule (path_regex,
// encrypted_regex, unencrypted_regex) once for the process: the configs of
// a fleet, their rendered files and the secrets they encrypt share a few
// patterns. The result is shared: a Regexp is safe for concurrent use, and
// none of its callers may call Longest on it.
func Pattern(expr string) (*regexp.Regexp, error) {
	return patterns.get(expr, regexp.Compile)
}

// PathPattern is a compiled path_regex. One that is a literal at the end
// of the path, as the usual `\.yaml$` is, is matched as a suffix: Go's
// regexps try it at every position of every path.
type PathPattern struct {
	re     *regexp.Regexp
	suffix string // the literal, when suffixOnly
	// suffixOnly: the pattern is that literal, then the end of the text.
	suffixOnly bool
}

// MatchString reports whether path p matches.
func (p *PathPattern) MatchString(s string) bool {
	if p.suffixOnly {
		return strings.HasSuffix(s, p.suffix)
	}
	return p.re.MatchString(s)
}

var pathPatterns = memo[string, *PathPattern]{max: 256}

// PathPatternOf compiles a path_regex once for the process, as Pattern does.
func PathPatternOf(expr string) (*PathPattern, error) {
	return pathPatterns.get(expr, func(expr string) (*PathPattern, error) {
		re, err := Pattern(expr)
		if err != nil {
			return nil, err
		}
		p := &PathPattern{re: re}
		if s, err := syntax.Parse(expr, syntax.Perl); err == nil {
			s = s.Simplify()
			if s.Op == syntax.OpConcat && len(s.Sub) == 2 && s.Sub[0].Op == syntax.OpLiteral &&
				s.Sub[0].Flags&syntax.FoldCase == 0 && s.Sub[1].Op == syntax.OpEndText {
				p.suffix, p.suffixOnly = string(s.Sub[0].Rune), true
			}
		}
		return p, nil
	})
}
