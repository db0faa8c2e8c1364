package sops

import (
	"regexp"
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
