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

// Templates are parsed, and static files read, once per process and shared
// by every render.
var (
	cacheMu sync.Mutex
	parsed  = map[string]*template.Template{}
	static  = map[string][]byte{}
)

// cached returns m[name], loading it from descriptors.Files the first time.
func cached[T any](m map[string]T, name string, load func(data []byte) (T, error)) (T, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if v, ok := m[name]; ok {
		return v, nil
	}
	var zero T
	data, err := fs.ReadFile(descriptors.Files, "files/"+name)
	if err != nil {
		return zero, err
	}
	v, err := load(data)
	if err != nil {
		return zero, err
	}
	m[name] = v
	return v, nil
}

func parsedTemplate(name string) (*template.Template, error) {
	return cached(parsed, name, func(data []byte) (*template.Template, error) { return tmpl.Parse(name, string(data)) })
}

func staticFile(name string) ([]byte, error) {
	return cached(static, name, func(data []byte) ([]byte, error) { return data, nil })
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
