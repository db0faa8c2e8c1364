package sops

import (
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
