package check

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/opencenter-dev/opencenter/gen/templates"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// templates compiles every .tpl a unit owns to Go (gen/templates): its data
// typed as the unit's service and secrets structs, each printed value
// escaped for its context. A file that prints a value of .Secrets is secret.
func (c *checker) templates() {
	funcs := map[string]string{}
	for _, u := range c.units {
		for i := range u.Files {
			f := &u.Files[i]
			if !f.IsTemplate {
				continue
			}
			file := c.in.Dir + "/files/" + f.Template
			text, err := c.in.ReadTemplate(f.Template)
			if err != nil {
				c.diags = append(c.diags, diag.Diag{File: file, Msg: "cannot read template: " + unwrapPath(err).Error()})
				continue
			}
			base := templates.FuncName(f.Template)
			name := base
			for n := 2; funcs[name] != ""; n++ { // a-b.yaml.tpl and a_b.yaml.tpl
				name = fmt.Sprintf("%s%d", base, n)
			}
			funcs[name] = f.Template
			out, diags := templates.Compile(templates.Input{
				File: file, Name: f.Template, Text: text, Func: name,
				Model: c.in.Model, Service: u.ServiceNode, Secrets: u.SecretsNode,
			})
			c.diags = append(c.diags, diags...)
			if out != nil {
				f.Compiled, f.Secret = out, out.Secret
			}
		}
	}
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
