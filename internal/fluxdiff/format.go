package fluxdiff

import (
	"fmt"
	"io"
	"strings"
)

// Changed reports whether anything Flux applies to the cluster changes.
func (c *Cluster) Changed() bool { return c.Change != Unchanged }

// Unaffected reports a cluster known not to change: nothing compared
// changes, and no unit was left out. Its report is one line.
func (c *Cluster) Unaffected() bool { return c.Change == Unchanged && len(c.NotCompared) == 0 }

// Summary says in one line how the cluster changes.
func (c *Cluster) Summary() string {
	switch c.Change {
	case Unchanged:
		if len(c.NotCompared) > 0 {
			return "no change in the Flux units compared"
		}
		return "no change"
	case Removed:
		return "its overlay is gone: the path flux bootstrap points the cluster's Flux at no longer exists, so its flux-system Kustomization fails and nothing is pruned"
	}
	n := map[Change]int{}
	units := map[Change]int{}
	values := 0
	for _, u := range c.Units {
		units[u.Change]++
		for _, o := range u.Objects {
			if !o.valuesOnly() {
				n[o.Change]++
			}
			if o.Values != nil && o.Change != Added {
				values++
			}
		}
	}
	if c.Change == Added {
		return fmt.Sprintf("a new overlay: %s, %s", count(units[Added], "Flux unit"), count(n[Added], "object"))
	}
	var parts []string
	for _, ch := range []Change{Added, Removed, Changed, Moved} {
		if n[ch] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[ch], ch))
		}
	}
	s := count(len(c.Units), "Flux unit") + " change"
	if len(c.Units) == 1 {
		s += "s"
	}
	var details []string
	var lifecycle []string
	if units[Added] > 0 {
		lifecycle = append(lifecycle, fmt.Sprintf("%d new", units[Added]))
	}
	if units[Removed] > 0 {
		lifecycle = append(lifecycle, fmt.Sprintf("%d removed", units[Removed]))
	}
	if len(lifecycle) > 0 {
		details = append(details, strings.Join(lifecycle, ", "))
	}
	if len(parts) > 0 {
		details = append(details, "objects: "+strings.Join(parts, ", "))
	}
	if values > 0 {
		details = append(details, "values of "+count(values, "HelmRelease"))
	}
	if len(details) > 0 {
		s += " (" + strings.Join(details, "; ") + ")"
	}
	return s
}

// count is n and a noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ey") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// marks are the first characters of the lines of a change.
var marks = map[Change]string{Added: "+", Removed: "-", Changed: "~", Moved: ">"}

// line is one line of a cluster's report: its depth, a kind for color,
// and its text.
type line struct {
	depth int
	kind  byte // '+', '-', '~', '!', '@' (hunk header), ' ' (context), 0 (plain)
	text  string
}

// lines are the report of a changed cluster, after its summary.
func (c *Cluster) lines() []line {
	var out []line
	for _, u := range c.Units {
		head := marks[u.Change] + " Flux unit " + u.Unit
		switch u.Change {
		case Added:
			head += " (new)"
		case Removed:
			head += " (removed)"
		}
		out = append(out, line{1, marks[u.Change][0], head})
		if u.Failed != "" {
			out = append(out, line{2, '!', "! does not build: " + u.Failed})
		}
		if u.BaseFailed != "" {
			out = append(out, line{2, '~', "~ builds now; it did not: " + u.BaseFailed})
		}
		for _, o := range u.Objects {
			if o.valuesOnly() {
				out = append(out, valuesLines(2, o.Label()+": values", o.Values)...)
				continue
			}
			text := marks[o.Change] + " " + o.Label()
			if o.MovedFrom != "" {
				text += " (moved from Flux unit " + o.MovedFrom + ")"
			}
			out = append(out, line{2, marks[o.Change][0], text})
			out = append(out, diffLines(3, o.Diff)...)
			if o.Values != nil {
				out = append(out, valuesLines(3, "values", o.Values)...)
			}
		}
		for _, r := range u.Remote {
			out = append(out, line{2, marks[r.Change][0], marks[r.Change] + " remote resource " + r.URL + " (in " + r.File + "; not fetched offline)"})
		}
	}
	for _, n := range c.NotCompared {
		out = append(out, line{1, 0, n.String()})
	}
	if c.Ciphertext {
		out = append(out, line{1, 0, "note: no age key opened some encrypted values: they were compared as ciphertext, and a value encrypted anew shows as changed"})
	}
	return out
}

// valuesOnly reports an object that did not change but whose values did.
func (o *Object) valuesOnly() bool {
	return o.Change == Changed && o.Diff == nil && o.Values != nil
}

// valuesLines are the lines of a HelmRelease's values: a heading at depth
// (label, and why they cannot be computed), their diff one level deeper
// for a heading of its own, and the sources left out.
func valuesLines(depth int, label string, v *Values) []line {
	var head line
	switch {
	case v.Error != "" && v.BaseError != "":
		head = line{depth, '!', "! " + label + ": cannot be computed: " + v.Error + " (before: " + v.BaseError + ")"}
	case v.Error != "":
		head = line{depth, '!', "! " + label + ": cannot be computed: " + v.Error}
	case v.BaseError != "":
		head = line{depth, '~', "~ " + label + ": computed now; before: " + v.BaseError}
	default:
		head = line{depth, '~', "~ " + label}
	}
	inner := depth + 1
	if depth == 2 {
		inner = 3 // the object's own line: its diff is where an object's is
	}
	out := append([]line{head}, diffLines(inner, v.Diff)...)
	for _, u := range v.Unknown {
		out = append(out, line{inner, 0, "not known here, left out: " + u})
	}
	return out
}

func diffLines(depth int, diff []string) []line {
	out := make([]line, 0, len(diff))
	for _, d := range diff {
		k := byte(' ')
		switch {
		case strings.HasPrefix(d, "@@"):
			k = '@'
		case d != "":
			k = d[0]
		}
		out = append(out, line{depth, k, d})
	}
	return out
}

// String says which units were not compared and why.
func (n NotCompared) String() string {
	names := n.Units
	const show = 6
	list := strings.Join(names, ", ")
	if len(names) > show {
		list = strings.Join(names[:show], ", ") + fmt.Sprintf(" and %d more", len(names)-show)
	}
	if n.Source != "" {
		return fmt.Sprintf("not compared offline: %s of %s (%s)", count(len(names), "Flux unit"), n.Source, list)
	}
	return fmt.Sprintf("not compared: %s (%s): %s", count(len(names), "Flux unit"), list, n.Reason)
}

// ANSI colors of the text report.
const (
	colorReset = "\033[0m"
	colorBold  = "\033[1m"
	colorRed   = "\033[31m"
	colorGreen = "\033[32m"
	colorYelow = "\033[33m"
	colorCyan  = "\033[36m"
	colorDim   = "\033[2m"
)

func colorOf(kind byte) string {
	switch kind {
	case '+':
		return colorGreen
	case '-', '!':
		return colorRed
	case '~', '>':
		return colorYelow
	case '@':
		return colorCyan
	case 0:
		return colorDim
	}
	return ""
}

// WriteText writes the cluster's report: its summary on one line, then
// its Flux units, their objects and diffs, and the units not compared,
// indented;
// with color, in ANSI colors for a terminal.
func (c *Cluster) WriteText(w io.Writer, color bool) error {
	var b strings.Builder
	head := c.Cluster + ": " + c.Summary()
	if color {
		head = colorBold + head + colorReset
	}
	b.WriteString(head + "\n")
	if c.Change != Removed {
		for _, l := range c.lines() {
			text := strings.Repeat("  ", l.depth) + l.text
			if col := colorOf(l.kind); color && col != "" {
				text = col + text + colorReset
			}
			b.WriteString(strings.TrimRight(text, " ") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownFold is the number of lines from which a cluster's block is
// folded away in a <details> element, so that a pull request comment stays
// readable.
const markdownFold = 40

// WriteMarkdown writes the report of a cluster for a pull request
// comment: a heading, its summary, and a diff block (folded when long).
// Clusters with no change at all are the caller's, listed on one line.
func (c *Cluster) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "#### `%s`\n\n%s\n\n", c.Cluster, c.Summary())
	lines := c.lines()
	if c.Change == Removed || len(lines) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	var body, after strings.Builder
	for _, l := range lines {
		text := l.text
		switch {
		case l.depth == 1 && l.kind == 0:
			// Not compared, notes: prose, after the block.
			after.WriteString(strings.ToUpper(text[:1]) + text[1:] + ".\n\n")
			continue
		case l.depth == 1:
			text = "# " + text[2:] // the unit, as a heading of the block
		case l.kind == '@' || l.kind == ' ' || l.kind == '+' || l.kind == '-':
			// Diff and object lines stay at the start of the line,
			// where Markdown's diff highlighting looks for + and -.
		default:
			text = strings.Repeat(" ", 2*(l.depth-2)) + text
		}
		body.WriteString(strings.TrimRight(text, " ") + "\n")
	}
	fence := "```"
	for strings.Contains(body.String(), fence) {
		fence += "`"
	}
	block := fence + "diff\n" + body.String() + fence + "\n"
	if len(lines) >= markdownFold {
		fmt.Fprintf(&b, "<details><summary>%d lines of diff</summary>\n\n%s\n</details>\n\n", len(lines), block)
	} else {
		b.WriteString(block + "\n")
	}
	b.WriteString(after.String())
	_, err := io.WriteString(w, b.String())
	return err
}
