package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// serviceValidator is implemented by service structs with cross-field rules.
type serviceValidator interface {
	Validate(v *config.Validator, path string, c *config.Config)
}

// Check reports through v what the tables find wrong in c, a config whose
// defaults are applied: each service's namespace and source override, the
// cross-field rules of each enabled service that opencenter renders (not
// adoption_mode external), then from the field index the
// fields required and not set, unknown enumeration values and values not in
// their format. zz_generated registers it, over its own tables, as the
// catalog check of config.Load.
func Check(v *config.Validator, c *config.Config, units []Unit, fields []Field) {
	checkServices(v, c, units)
	checkRequired(v, c, fields, externalPaths(c, units))
	checkEnums(v, c, fields)
	checkFormats(v, c, fields)
}

// checkServices checks the common fields of every service present and runs
// the Validate method of every enabled service that has one.
func checkServices(v *config.Validator, c *config.Config, units []Unit) {
	for i := range units {
		u := &units[i]
		if u.Common == nil {
			continue
		}
		common := u.Common(c)
		if common == nil {
			continue
		}
		p := u.ServicePath()
		v.DNSLabelAt(p, "namespace", common.Namespace)
		v.SourceOverride(p, u.SourceOverride(c))
		if !common.Enabled || common.External() {
			continue // nothing rendered: its rules do not apply
		}
		svc, _ := u.Data(c)
		if sv, ok := svc.(serviceValidator); ok {
			sv.Validate(v, p, c)
		}
	}
}

// checkEnums reports every enumeration field holding a value outside its
// constants (the decoder accepts any string).
func checkEnums(v *config.Validator, c *config.Config, fields []Field) {
	for i := range fields {
		f := &fields[i]
		if len(f.Enum) == 0 || f.Get == nil {
			continue
		}
		val, ok := f.Get(c)
		if !ok {
			continue
		}
		s := fmt.Sprint(val)
		if s == "" || slices.Contains(f.Enum, s) {
			continue
		}
		v.Errorf(f.Path, "unknown value %q: expected one of %s%s", s, strings.Join(f.Enum, ", "), diag.Suggest(s, f.Enum))
	}
}

// externalPaths are the config paths, with a trailing dot, of the
// services installed outside opencenter (adoption_mode external) and of
// their secrets: nothing of them is rendered, so nothing there is required.
func externalPaths(c *config.Config, units []Unit) []string {
	var paths []string
	for i := range units {
		u := &units[i]
		if u.Common == nil || !u.Common(c).External() {
			continue
		}
		secrets := "secrets.services."
		if u.Layer == LayerManagedServices {
			secrets = "secrets.managed_services."
		}
		paths = append(paths, u.ServicePath()+".", secrets+u.Service+".")
	}
	return paths
}

// checkRequired reports every field that its required_when tag requires
// and that is not set, except under external (externalPaths). A key
// missing from the file is placed at its mapping, or when that is missing
// too at the field that made it required.
func checkRequired(v *config.Validator, c *config.Config, fields []Field, external []string) {
	for i := range fields {
		f := &fields[i]
		if f.Missing == nil || slices.ContainsFunc(external, func(p string) bool { return strings.HasPrefix(f.Path, p) }) {
			continue
		}
		for _, p := range f.Missing(c) {
			msg := "required when " + f.RequiredWhen
			if w := what(f); w != "" {
				msg += ": " + w
			}
			v.ErrorfMissing(f.RequiredBy, p, "%s", msg)
		}
	}
}

// what says what a field holds, from the first clause of its doc with the
// key and its verb dropped: "bucket is the bucket of log chunks." -> "the
// bucket of log chunks".
func what(f *Field) string {
	doc := f.Doc
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	if i := strings.Index(doc, "; "); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSuffix(doc, ".")
	key := f.Path[strings.LastIndexAny(f.Path, ".]")+1:]
	if rest, ok := strings.CutPrefix(doc, key+" "); ok {
		for _, verb := range []string{"is ", "are ", "names "} {
			if r, ok := strings.CutPrefix(rest, verb); ok {
				return r
			}
		}
		return rest
	}
	return doc
}

// checkFormats reports every set string field whose value does not match its
// format (a quantity, a hostname, a URL...), in list elements too, each item
// of a list and each key and value of a map of strings that does not match
// its format, unless a problem is already reported at its path: the field's
// own rule says it better.
func checkFormats(v *config.Validator, c *config.Config, fields []Field) {
	fc := formatCheck{v: v, reported: map[string]bool{}}
	for _, d := range v.Diags() {
		fc.reported[d.Path] = true
	}
	for i := range fields {
		f := &fields[i]
		if f.Item != nil && !f.Secret {
			for j := 0; ; j++ {
				s, ok := f.Item(c, j)
				if !ok {
					break
				}
				if s != "" && !matches(f.Format, s) {
					fc.report(strings.Replace(f.Path, "[]", "["+strconv.Itoa(j)+"]", 1), "", f.Format, s)
				}
			}
			continue
		}
		if f.Format == "" && f.KeyFormat == "" || f.Get == nil || f.Secret || fc.reported[f.Path] {
			continue
		}
		val, ok := f.Get(c)
		if !ok {
			continue
		}
		// Paths are made, and a map's keys sorted, only for a report.
		switch x := val.(type) {
		case string:
			if x != "" && !matches(f.Format, x) {
				fc.report(f.Path, "", f.Format, x)
			}
		case *string:
			if x != nil && *x != "" && !matches(f.Format, *x) {
				fc.report(f.Path, "", f.Format, *x)
			}
		case []string:
			// An item is never unset: an empty one is checked too.
			for j, s := range x {
				if !matches(f.Format, s) {
					fc.report(fmt.Sprintf("%s[%d]", f.Path, j), "", f.Format, s)
				}
			}
		case map[string]string:
			bad := false
			for k, s := range x {
				bad = bad || !matches(f.KeyFormat, k) || !matches(f.Format, s)
			}
			if !bad {
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if !matches(f.KeyFormat, k) {
					fc.report(f.Path+"."+k, "key ", f.KeyFormat, k)
				}
				if !matches(f.Format, x[k]) {
					fc.report(f.Path+"."+k, "", f.Format, x[k])
				}
			}
		}
	}
}

// formatCheck reports through v at the paths nothing has been reported at.
type formatCheck struct {
	v        *config.Validator
	reported map[string]bool
}

func (fc formatCheck) report(p, what, format, s string) {
	if !fc.reported[p] {
		fc.v.Errorf(p, "%s%q is not %s", what, s, config.FormatDocs[format])
	}
}

// matches reports whether s is of format, "" matching anything.
func matches(format, s string) bool { return format == "" || config.MatchFormat(format, s) }
