package catalog

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// The generated check of config's load (zz_generated/check.go) is typed,
// straight-line Go that reads each field where it is declared; what it
// reports through is here, so that each message is written once.

// Enum reports s, the value of the enumeration field at YAML path p, when
// it is set and not one of allowed (sorted): the decoder accepts any string.
func Enum(v *config.Validator, p, s string, allowed ...string) {
	if s == "" || slices.Contains(allowed, s) {
		return
	}
	v.Errorf(p, "unknown value %q: expected one of %s%s", s, strings.Join(allowed, ", "), diag.Suggest(s, allowed))
}

// Formats reports strings that do not match their format (config.Formats),
// at the paths nothing was reported at when it was made: a field's own
// rule, checked before, says it better. Paths are made, and a map's keys
// sorted, only for a report.
type Formats struct {
	v        *config.Validator
	reported map[string]bool
}

// NewFormats returns a Formats reporting through v.
func NewFormats(v *config.Validator) *Formats {
	f := &Formats{v: v, reported: map[string]bool{}}
	for _, d := range v.Diags() {
		f.reported[d.Path] = true
	}
	return f
}

// String checks the string field at p; an empty one is not set.
func (f *Formats) String(p, format, s string) {
	if s != "" && !matches(format, s) {
		f.report(p, "", format, s)
	}
}

// Item checks a string field inside the elements of a list, element i of
// it: p is the field's path with "[]" for the list.
func (f *Formats) Item(p string, i int, format, s string) {
	if s != "" && !matches(format, s) {
		f.report(strings.Replace(p, "[]", "["+strconv.Itoa(i)+"]", 1), "", format, s)
	}
}

// List checks each item of the list of strings at p; an item is never
// unset, so an empty one is checked too.
func (f *Formats) List(p, format string, items []string) {
	if f.reported[p] {
		return
	}
	for i, s := range items {
		if !matches(format, s) {
			f.report(p+"["+strconv.Itoa(i)+"]", "", format, s)
		}
	}
}

// Map checks each key and value of the map of strings at p, "" formats
// matching anything.
func (f *Formats) Map(p, keyFormat, format string, m map[string]string) {
	if f.reported[p] {
		return
	}
	bad := false
	for k, s := range m {
		bad = bad || !matches(keyFormat, k) || !matches(format, s)
	}
	if !bad {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !matches(keyFormat, k) {
			f.report(p+"."+k, "key ", keyFormat, k)
		}
		if !matches(format, m[k]) {
			f.report(p+"."+k, "", format, m[k])
		}
	}
}

func (f *Formats) report(p, what, format, s string) {
	if !f.reported[p] {
		f.v.Errorf(p, "%s%q is not %s", what, s, config.FormatDocs[format])
	}
}

// matches reports whether s is of format, "" matching anything.
func matches(format, s string) bool { return format == "" || config.MatchFormat(format, s) }
