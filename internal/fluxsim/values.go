package fluxsim

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// valuesData returns the bytes helm-controller reads for a valuesFrom key:
// a Secret's data (base64; stringData is data once applied) or a
// ConfigMap's data. ok is false when the key is not there, which
// helm-controller fails on even for an optional reference.
func valuesData(kind string, body map[string]any, key string) (data []byte, ok bool, err error) {
	fields := []string{"data"}
	if kind == "Secret" {
		fields = append(fields, "stringData")
	}
	for _, field := range fields {
		m, _ := body[field].(map[string]any)
		v, found := m[key]
		if !found {
			continue
		}
		s, _ := v.(string)
		if kind == "Secret" && field == "data" {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return nil, true, fmt.Errorf("data.%s is not base64: the API server refuses the Secret", key)
			}
			return b, true, nil
		}
		return []byte(s), true, nil
	}
	return nil, false, nil
}

// valuesProblem says what of a values document helm-controller does not
// read as written, or "" when it reads all of it. Helm reads values with
// sigs.k8s.io/yaml into a map, which takes the first YAML document only
// and ignores the rest without a word; unreadable means the HelmRelease
// fails (helm-controller's ErrValuesDataRead).
func valuesProblem(data []byte) (problem string, unreadable bool) {
	var values map[string]any
	if err := sigsyaml.Unmarshal(data, &values); err != nil {
		return "Helm cannot read it as values (a YAML mapping): " + err.Error(), true
	}
	d := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := d.Decode(&doc); err != nil {
		return "", false // empty: Helm reads no values, as written
	}
	for {
		var next yaml.Node
		err := d.Decode(&next)
		if errors.Is(err, io.EOF) {
			return "", false
		}
		if err != nil {
			return "what follows its first YAML document does not parse (" + err.Error() + "); helm-controller reads only the first document and ignores the rest", false
		}
		if len(next.Content) == 0 || next.Content[0].Tag == "!!null" {
			continue // an empty document: nothing is lost
		}
		what := "a YAML document"
		if n := next.Content[0]; n.Kind == yaml.MappingNode {
			what = "values (" + keysOf(n) + ")"
		}
		return fmt.Sprintf("%s from its line %d on are a second YAML document, which helm-controller ignores: it reads only the first", what, next.Line), false
	}
}

// keysOf lists a mapping's first keys, for a message.
func keysOf(n *yaml.Node) string {
	var keys []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	const show = 4
	if len(keys) > show {
		return strings.Join(keys[:show], ", ") + fmt.Sprintf(" and %d more", len(keys)-show)
	}
	return strings.Join(keys, ", ")
}
