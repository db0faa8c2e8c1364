// Package tmpl is the template dialect of overlay files: text/template with
// missingkey=error and a small, fixed function set. The generator type-checks
// templates against it; the renderer executes them with it.
package tmpl
