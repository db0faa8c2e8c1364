package emit

import (
	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/templates"
)

// Templates emits templates.go: every overlay template compiled to a Go
// function (gen/templates), sorted by name; units.go points each template
// file at its function.
func Templates(units []*check.Unit) ([]byte, error) {
	f := newFile()
	f.ImportName(templates.EscapePkg, "escape")
	var outs []*templates.Output
	for _, u := range units {
		for _, file := range u.Files {
			if file.Compiled != nil {
				outs = append(outs, file.Compiled)
			}
		}
	}
	for _, o := range templates.Sorted(outs) {
		f.Add(o.Code)
		f.Line()
	}
	return render(f)
}
