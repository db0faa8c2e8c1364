package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Diag is one problem found in an input file.
type Diag struct {
	File string // path of the input, as the user named it
	Line int    // 1-based; 0 when the problem has no line (a missing file)
	Col  int    // 1-based; 0 when unknown
	Path string // YAML path such as opencenter.services.keycloak.hostname; may be empty
	Msg  string
}

// String formats the diagnostic as `file:line:col: path: message`.
func (d Diag) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		col := max(d.Col, 1)
		fmt.Fprintf(&b, ":%d:%d", d.Line, col)
	}
	b.WriteString(": ")
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteString(": ")
	}
	b.WriteString(d.Msg)
	return b.String()
}

// List is a set of diagnostics; as an error it prints them sorted, one per line.
type List []Diag

// Error implements error.
func (l List) Error() string {
	s := slices.Clone(l)
	Sort(s)
	lines := make([]string, len(s))
	for i, d := range s {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Err returns the list as an error, or nil when it is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	s := slices.Clone(l)
	Sort(s)
	return s
}

// Sort orders diagnostics by file, line, column, path and message, and drops
// exact duplicates' order dependence.
func Sort(l List) {
	slices.SortStableFunc(l, func(a, b Diag) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
}

// Suggest returns ` (did you mean "x"?)` for the candidate closest to word,
// or "" when none is close enough to be a likely typo.
func Suggest(word string, candidates []string) string {
	if best := Closest(word, candidates); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

// Closest returns the candidate closest to word, or "" when none is close
// enough to be a likely typo.
func Closest(word string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := distance(strings.ToLower(word), strings.ToLower(c))
		if bestDist < 0 || d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	// Allow about one edit per three characters, and always at least two.
	if best == "" || bestDist > max(2, len(word)/3) || bestDist >= len(word) {
		return ""
	}
	return best
}

// distance is the Levenshtein edit distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// AsList flattens err into diagnostics; an error that is not a List becomes
// one diagnostic naming file.
func AsList(file string, err error) List {
	if err == nil {
		return nil
	}
	if l, ok := err.(List); ok {
		return l
	}
	return List{{File: file, Msg: err.Error()}}
}
