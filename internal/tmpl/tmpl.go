package tmpl

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/template"

	sigsyaml "sigs.k8s.io/yaml"
)

// Funcs returns the functions templates may call.
func Funcs() template.FuncMap {
	return template.FuncMap{
		"b64enc":  func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
		"default": defaultValue,
		"indent":  indent,
		"join":    func(sep string, items []string) string { return strings.Join(items, sep) },
		"lower":   strings.ToLower,
		"nindent": func(n int, s string) string { return "\n" + indent(n, s) },
		"quote":   quote,
		"toYaml":  toYAML,
		"upper":   strings.ToUpper,
	}
}

// Names returns the function names, sorted, for the generator's checks.
func Names() []string {
	var names []string
	for n := range Funcs() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Parse parses a template of the dialect.
func Parse(name, text string) (*template.Template, error) {
	return template.New(name).Option("missingkey=error").Funcs(Funcs()).Parse(text)
}

// deref follows pointers, as text/template does when it prints a value; a
// nil pointer gives nil. Printing a pointer would print an address.
func deref(v any) any {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return nil
	}
	return rv.Interface()
}

// quote renders a value as a double-quoted YAML scalar ("" for nil).
func quote(v any) string {
	v = deref(v)
	if v == nil {
		return `""`
	}
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return strconv.Quote(fmt.Sprint(v))
}

// defaultValue returns v, or def when v is nil or the zero value of its type.
func defaultValue(def, v any) any {
	v = deref(v)
	if v == nil || reflect.ValueOf(v).IsZero() {
		return def
	}
	return v
}

func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

// toYAML marshals v as YAML without a trailing newline.
func toYAML(v any) (string, error) {
	b, err := sigsyaml.Marshal(v)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(b), "\n"), nil
}
