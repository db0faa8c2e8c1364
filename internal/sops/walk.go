package sops

import (
	"fmt"
	"strings"
	"time"
)

// leafFunc maps one leaf (a scalar or a comment line) to its replacement.
// path holds the mapping keys leading to it; sequence positions are not keys.
// path is the walk's own stack, valid during the call only: a leafFunc
// copies what it keeps of it.
type leafFunc func(leaf any, path []string) (any, error)

// walk visits the leaves of m in document order, which is the order the MAC
// hashes them in. null values are not leaves: sops neither encrypts nor
// hashes them.
func walk(m mapping, fn leafFunc) error {
	return walkMapping(m, make([]string, 0, 16), fn)
}

func walkMapping(m mapping, path []string, fn leafFunc) error {
	for i := range m {
		e := &m[i]
		if c, ok := e.key.(comment); ok {
			v, err := fn(c, path)
			if err != nil {
				return err
			}
			switch v := v.(type) {
			case comment:
				e.key = v
			case string:
				e.key = comment{text: v, inline: c.inline}
			default:
				return fmt.Errorf("%s: a comment decrypted to a %T value", pathString(path), v)
			}
			continue
		}
		// One stack for the walk: a sibling's key replaces this one once
		// its subtree is done, and no leafFunc keeps path.
		sub := append(path, e.key.(string))
		v, err := walkValue(e.value, sub, fn)
		if err != nil {
			return err
		}
		e.value = v
	}
	return nil
}

func walkValue(v any, path []string, fn leafFunc) (any, error) {
	switch v := v.(type) {
	case mapping:
		return v, walkMapping(v, path, fn)
	case []any:
		for i := range v {
			nv, err := walkValue(v[i], path, fn)
			if err != nil {
				return nil, err
			}
			// An encrypted comment stays a comment, as in a mapping (see
			// Encrypt for why this differs from sops 3.13.3).
			if c, ok := v[i].(comment); ok {
				if s, ok := nv.(string); ok {
					nv = comment{text: s, inline: c.inline}
				}
			}
			v[i] = nv
		}
		return v, nil
	case nil:
		return nil, nil
	case string, int, float64, bool, time.Time, []byte, comment:
		return fn(v, path)
	}
	return nil, fmt.Errorf("%s: a %T value is not supported by sops (an integer out of the int64 range?)", pathString(path), v)
}

// pathString names a value in errors without showing it.
func pathString(path []string) string {
	if len(path) == 0 {
		return "the top level"
	}
	return "value at " + strings.Join(path, ".")
}
