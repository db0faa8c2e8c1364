package plan

import (
	"io/fs"
	"sync"

	"github.com/opencenter-dev/opencenter/descriptors"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// Static files are read once per process and shared by every render.
var (
	staticMu sync.Mutex
	static   = map[string][]byte{}
)

func staticFile(name string) ([]byte, error) {
	staticMu.Lock()
	defer staticMu.Unlock()
	if data, ok := static[name]; ok {
		return data, nil
	}
	data, err := fs.ReadFile(descriptors.Files, "files/"+name)
	if err != nil {
		return nil, err
	}
	static[name] = data
	return data, nil
}

// execute appends one overlay file of a unit to dst: a static file as it
// is, a template through its compiled function (zz_generated/templates.go).
func (b *builder) execute(dst []byte, info *catalog.Info, f catalog.File) ([]byte, error) {
	if f.Render == nil {
		data, err := staticFile(f.Template)
		return append(dst, data...), err
	}
	return f.Render(dst, b.c, info)
}

// info is what the templates of unit u see of it.
func (b *builder) info(u *catalog.Unit) catalog.Info {
	return catalog.Info{
		Name:         u.Name,
		Namespace:    b.namespace(u),
		Overlay:      b.p.Overlay,
		Root:         u.Root,
		HelmRelease:  u.HelmRelease,
		ValuesSecret: u.ValuesSecret,
	}
}
