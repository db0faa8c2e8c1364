package load

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/zz_generated"
)

// serviceValidator is implemented by service structs with cross-field rules.
type serviceValidator interface {
	Validate(v *config.Validator, path string, c *config.Config)
}

// File loads, defaults and validates one config file. The error is a
// diag.List with every problem of the file.
func File(name string, o config.LoadOptions) (*config.File, error) {
	f, err := config.Load(name, o)
	if err != nil {
		return nil, err
	}
	return f, Check(f)
}

// Bytes is File for data already in memory, named name in diagnostics.
func Bytes(name string, data []byte) (*config.File, error) {
	f, err := config.Parse(name, data, config.LoadOptions{})
	if err != nil {
		return nil, err
	}
	return f, Check(f)
}

// Check applies defaults to a decoded file and validates it.
func Check(f *config.File) error {
	zz_generated.ApplyDefaults(f.Config)
	config.ApplyDerivedDefaults(f.Config)
	if b := &f.Config.OpenCenter.GitOps.BaseRepo; b.Release == "" && b.Branch == "" {
		b.Release = config.DefaultBaseRelease
	}
	diags := config.Validate(f)
	v := config.NewValidator(f)
	for i := range zz_generated.Units {
		u := &zz_generated.Units[i]
		if u.Common == nil {
			continue
		}
		common := u.Common(f.Config)
		if common == nil {
			continue
		}
		p := u.ServicePath()
		v.DNSLabel(p+".namespace", common.Namespace)
		v.SourceOverride(p+".source", common.Source)
		if !common.Enabled {
			continue
		}
		svc, _ := u.Data(f.Config)
		if sv, ok := svc.(serviceValidator); ok {
			sv.Validate(v, p, f.Config)
		}
	}
	checkRequired(v, f.Config)
	checkEnums(v, f.Config)
	checkFormats(v, f.Config, diags)
	diags = append(diags, v.Diags()...)
	return diags.Err()
}

// checkEnums reports every enumeration field holding a value outside its
// constants, from the field index (the decoder accepts any string).
func checkEnums(v *config.Validator, c *config.Config) {
	for i := range zz_generated.Fields {
		f := &zz_generated.Fields[i]
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

// checkRequired reports every field that its required_when tag requires
// and that is not set, from the field index. A key missing from the file is
// placed at its mapping, or when that is missing too at the field that made
// it required.
func checkRequired(v *config.Validator, c *config.Config) {
	for i := range zz_generated.Fields {
		f := &zz_generated.Fields[i]
		if f.Missing == nil {
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
func what(f *catalog.Field) string {
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

// formats are the compiled patterns of config.Formats.
var formats = func() map[string]*regexp.Regexp {
	m := map[string]*regexp.Regexp{}
	for k, p := range config.Formats {
		m[k] = regexp.MustCompile(p)
	}
	return m
}()

// checkFormats reports every set string field whose value does not match its
// format (a quantity, a hostname, a URL...), from the field index. Fields in
// list elements are checked by their service's validator.
func checkFormats(v *config.Validator, c *config.Config, earlier diag.List) {
	reported := map[string]bool{} // a field's own validator says it better
	for _, d := range append(earlier, v.Diags()...) {
		reported[d.Path] = true
	}
	for i := range zz_generated.Fields {
		f := &zz_generated.Fields[i]
		if f.Format == "" || f.Get == nil || f.Secret || reported[f.Path] {
			continue
		}
		val, ok := f.Get(c)
		if !ok {
			continue
		}
		var s string
		switch x := val.(type) {
		case string:
			s = x
		case *string:
			if x == nil {
				continue
			}
			s = *x
		default:
			continue
		}
		if s == "" || formats[f.Format].MatchString(s) {
			continue
		}
		v.Errorf(f.Path, "%q is not %s", s, config.FormatDocs[f.Format])
	}
}
