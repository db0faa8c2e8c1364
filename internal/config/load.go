package config

import (
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// File is a decoded config with the positions of its keys, so that later
// checks can report file:line for any YAML path.
type File struct {
	// Name is the path of the file as the user named it.
	Name string
	// Config is the decoded config.
	Config *Config
	pos    *yamlfile.Positions
}

// Load reads and strictly decodes a config file. Defaults are not applied and
// nothing is validated beyond the shape of the document; the error, if any, is
// a diag.List with every problem of the file.
func Load(name string) (*File, error) {
	var c Config
	pos, err := yamlfile.ReadFile(name, &c)
	if err != nil {
		return nil, err
	}
	return &File{Name: name, Config: &c, pos: pos}, nil
}

// Parse strictly decodes data, naming it name in diagnostics.
func Parse(name string, data []byte) (*File, error) {
	var c Config
	pos, err := yamlfile.Decode(name, data, &c)
	if err != nil {
		return nil, err
	}
	return &File{Name: name, Config: &c, pos: pos}, nil
}

// DiagAt returns a diagnostic about YAML path p placed at the key of YAML
// path at, for a problem whose path is absent from the file.
func (f *File) DiagAt(at, p, format string, args ...any) diag.Diag {
	d := f.Diag(at, format, args...)
	d.Path = p
	return d
}

// Has reports whether YAML path p is present in the file.
func (f *File) Has(p string) bool { return f.pos != nil && f.pos.Has(p) }

// Diag returns a diagnostic at YAML path p, placed at the key of p or of its
// nearest ancestor present in the file.
func (f *File) Diag(p, format string, args ...any) diag.Diag {
	if f.pos == nil {
		return diag.Diag{File: f.Name, Path: p, Msg: sprintf(format, args...)}
	}
	return f.pos.Diag(p, format, args...)
}
