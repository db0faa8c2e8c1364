package render

import (
	"bytes"
	"fmt"
	"io/fs"
	"sync"
	"text/template"

	"github.com/opencenter-dev/opencenter/descriptors"
	"github.com/opencenter-dev/opencenter/internal/table"
	"github.com/opencenter-dev/opencenter/internal/tmpl"
)

// Templates are parsed once per process and shared by every render.
var (
	parsedMu sync.Mutex
	parsed   = map[string]*template.Template{}
	static   = map[string][]byte{}
)

func parsedTemplate(name string) (*template.Template, error) {
	parsedMu.Lock()
	defer parsedMu.Unlock()
	if t, ok := parsed[name]; ok {
		return t, nil
	}
	text, err := fs.ReadFile(descriptors.Files, "files/"+name)
	if err != nil {
		return nil, err
	}
	t, err := tmpl.Parse(name, string(text))
	if err != nil {
		return nil, err
	}
	parsed[name] = t
	return t, nil
}

func staticFile(name string) ([]byte, error) {
	parsedMu.Lock()
	defer parsedMu.Unlock()
	if b, ok := static[name]; ok {
		return b, nil
	}
	b, err := fs.ReadFile(descriptors.Files, "files/"+name)
	if err != nil {
		return nil, err
	}
	static[name] = b
	return b, nil
}

// execute renders one overlay file of a unit.
func (b *builder) execute(u *table.Unit, f table.File) ([]byte, error) {
	if !f.IsTemplate {
		return staticFile(f.Template)
	}
	t, err := parsedTemplate(f.Template)
	if err != nil {
		return nil, err
	}
	data := table.Data{
		OpenCenter: &b.c.OpenCenter,
		Unit: table.Info{
			Name:         u.Name,
			Namespace:    b.namespace(u),
			Overlay:      b.p.Overlay,
			Root:         u.Root,
			HelmRelease:  u.HelmRelease,
			ValuesSecret: u.ValuesSecret,
		},
	}
	if u.Data != nil {
		data.Service, data.Secrets = u.Data(b.c)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("executing template: %w", err)
	}
	return buf.Bytes(), nil
}
