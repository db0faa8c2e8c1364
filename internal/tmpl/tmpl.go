package tmpl

import (
	"encoding/base64"
	"fmt"
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

// quote renders a value as a double-quoted YAML scalar.
func quote(v any) string {
	switch s := v.(type) {
	case string:
		return strconv.Quote(s)
	case *string:
		if s == nil {
			return `""`
		}
		return strconv.Quote(*s)
	}
	return strconv.Quote(fmt.Sprint(v))
}

// defaultValue returns v, or def when v is empty ("", 0, false, nil).
func defaultValue(def, v any) any {
	switch x := v.(type) {
	case nil:
		return def
	case string:
		if x == "" {
			return def
		}
	case int:
		if x == 0 {
			return def
		}
	case bool:
		if !x {
			return def
		}
	case *int:
		if x == nil {
			return def
		}
		return *x
	case *bool:
		if x == nil {
			return def
		}
		return *x
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
