// Package udiff prints unified diffs of small text files (rendered manifests),
// with an LCS line diff: quadratic, which is fine for files of a few hundred lines.
package udiff

import (
	"fmt"
	"strings"
)

// Unified returns the unified diff of a and b with 3 lines of context, or ""
// when they are equal.
func Unified(nameA, nameB string, a, b []byte) string {
	x, y := lines(a), lines(b)
	ops := diff(x, y)
	var out strings.Builder
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before the change to ctx lines after the last change near it.
		start := max(0, i-ctx)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			j := end
			for j < len(ops) && ops[j].kind == ' ' && j-end < 2*ctx {
				j++
			}
			if j < len(ops) && ops[j].kind != ' ' && j-end < 2*ctx {
				end = j
				continue
			}
			break
		}
		end = min(len(ops), end+ctx)
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
		}
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(aStart, aLen), span(bStart, bLen))
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

type op struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // line index in a and b where the op starts
}

func lines(s []byte) []string {
	if len(s) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(s), "\n"), "\n")
}

func diff(x, y []string) []op {
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i], i, j})
			i++
		default:
			ops = append(ops, op{'+', y[j], i, j})
			j++
		}
	}
	return ops
}
