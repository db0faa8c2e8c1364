// Package templates compiles overlay templates (descriptors/files/**/*.tpl)
// to Go: typed config in, escaped bytes out, no text/template and no
// reflection at render time.
//
// A template is parsed with text/template/parse and compiled in two passes:
//
//  1. context (context.go): every output line the template can produce is
//     followed through its branches, and each printed value is placed in
//     its context from the literal text around it: a YAML scalar (the whole
//     scalar, literal text included), a YAML key, a comment, a line of a
//     block scalar holding YAML, a gcfg value or subsection (INI with
//     escapes: cloud.conf) or a plain INI value (AWS credentials). A block
//     scalar that holds values declares its format with a template comment
//     after its indicator, `cloud.conf: |{{/* gcfg */}}`. A value whose
//     context the compiler cannot escape for, or that differs between
//     branches, is an error with the template's file:line:col.
//  2. code (expr.go, compile.go): the template's data is typed from the
//     config types (go/types), each action becomes Go that reads the fields
//     it names, so renaming a field breaks the build of zz_generated, and
//     each printed value goes through the escaper of its context
//     (internal/escape).
//
// The dialect is text/template's syntax with a fixed function set (see
// Funcs); `quote` is gone: every value is escaped as its context needs.
package templates
