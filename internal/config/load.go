package config

import (
	"slices"
	"strings"
	"sync"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// File is a decoded config with the positions of its keys, so that later
// checks can report file:line for any YAML path.
type File struct {
	// Name is the path of the file as the user named it.
	Name string
	// Config is the decoded config, its encrypted values decrypted.
	Config *Config
	// Encryption says how its values were stored.
	Encryption Encryption
	// pos finds the positions of its keys.
	pos *lazyPositions
}

// lazyPositions finds the positions of a file's keys, from its text, when
// a diagnostic first needs them: most configs have no problem, and a file
// keeps its text (13 KB, shared with its values) instead of 30 KB of
// positions (a fleet render holds every config at once).
type lazyPositions struct {
	text string
	once sync.Once
	pos  *yamlfile.Positions
}

// positions returns the positions of the file's keys, nil if unknown.
func (f *File) positions() *yamlfile.Positions {
	l := f.pos
	if l == nil {
		return nil
	}
	l.once.Do(func() { l.pos, _ = yamlfile.PositionsOf(f.Name, l.text, &Config{}) })
	return l.pos
}

// Load reads a config file and returns it checked: strictly decoded, its
// values SOPS encrypted in place decrypted (with the age keys sops would
// use), its defaults applied and validated. The error is a diag.List with
// every problem of the file. It panics when no catalog is registered (see
// RegisterCatalog).
func Load(name string, o LoadOptions) (*File, error) {
	data, err := yamlfile.Read(name)
	if err != nil {
		return nil, err
	}
	return parse(name, string(data), o)
}

// Parse is Load for data in memory, named name in diagnostics.
func Parse(name string, data []byte, o LoadOptions) (*File, error) {
	return parse(name, string(data), o)
}

// parse loads a config and checks it. Keys that are no field and values of
// the wrong type do not stop it: they are left out, the rest is checked
// too, and every problem is reported at once (those the checks find where
// a value was left out apart: that value is already reported).
func parse(name, text string, o LoadOptions) (*File, error) {
	root, err := yamlfile.ParseText(name, text)
	if err != nil {
		return nil, err
	}
	enc, err := open(name, root, o)
	if err != nil {
		return nil, err
	}
	var c Config
	shape, whole := yamlfile.DecodeAround(name, root, &c)
	if !whole {
		return nil, shape.Err()
	}
	f := &File{Name: name, Config: &c, Encryption: enc, pos: &lazyPositions{text: text}}
	checked := diag.AsList(name, f.Check())
	if len(shape) == 0 {
		return f, checked.Err()
	}
	problems := shape
	for _, d := range checked {
		if !slices.ContainsFunc(shape, func(s diag.Diag) bool { return within(d.Path, s.Path) }) {
			problems = append(problems, d)
		}
	}
	return nil, problems.Err()
}

// within reports whether YAML path p is at or below path at ("" is none).
func within(p, at string) bool {
	return at != "" && (p == at || strings.HasPrefix(p, at+".") || strings.HasPrefix(p, at+"["))
}

// Decode is the first half of Parse: it decrypts and strictly decodes, and
// checks nothing beyond the shape of the document; Check is the second half.
// It is for callers that need the config whatever its problems (an edit
// reports them once it is made) or that change it before checking it.
func Decode(name string, data []byte, o LoadOptions) (*File, error) {
	return decode(name, string(data), o)
}

func decode(name, text string, o LoadOptions) (*File, error) {
	root, err := yamlfile.ParseText(name, text)
	if err != nil {
		return nil, err
	}
	enc, err := open(name, root, o)
	if err != nil {
		return nil, err
	}
	var c Config
	if err := yamlfile.DecodeValues(name, root, &c); err != nil {
		return nil, err
	}
	return &File{Name: name, Config: &c, Encryption: enc, pos: &lazyPositions{text: text}}, nil
}

// Check applies the defaults to a decoded file (which it changes, problems
// or not) and validates it: the contract's rules, then the registered
// catalog's checks. The error is a diag.List with every problem at once.
func (f *File) Check() error {
	cat := registered()
	cat.ApplyDefaults(f.Config)
	applyDerivedDefaults(f.Config)
	if b := &f.Config.OpenCenter.GitOps.BaseRepo; b.Release == "" && b.Branch == "" {
		b.Release = DefaultBaseRelease
	}
	v := NewValidator(f)
	validate(v)
	cat.Check(v, f.Config)
	return v.Diags().Err()
}

// DiagAt returns a diagnostic about YAML path p placed at the key of YAML
// path at, for a problem whose path is absent from the file.
func (f *File) DiagAt(at, p, format string, args ...any) diag.Diag {
	d := f.Diag(at, format, args...)
	d.Path = p
	return d
}

// Has reports whether YAML path p is present in the file.
func (f *File) Has(p string) bool {
	pos := f.positions()
	return pos != nil && pos.Has(p)
}

// Diag returns a diagnostic at YAML path p, placed at the key of p or of its
// nearest ancestor present in the file.
func (f *File) Diag(p, format string, args ...any) diag.Diag {
	pos := f.positions()
	if pos == nil {
		return diag.Diag{File: f.Name, Path: p, Msg: sprintf(format, args...)}
	}
	return pos.Diag(p, format, args...)
}
