package fluxdiff

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/chartvalues"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// What a secret value prints as: unchanged (or on the old side), and on
// the new side of a change.
const (
	secretText    = "(secret)"
	secretChanged = "(secret, changed)"
)

// hidden is a secret value of an object. It compares by value, or by
// ciphertext when no key opened it, and prints as "(secret)".
type hidden struct {
	v      string
	cipher bool
}

// String keeps fmt from printing the value.
func (hidden) String() string { return secretText }

// GoString keeps %#v from printing the value.
func (hidden) GoString() string { return secretText }

// MarshalJSON keeps JSON and YAML from holding the value.
func (hidden) MarshalJSON() ([]byte, error) { return json.Marshal(secretText) }

// isCipher reports whether s is a value SOPS encrypted.
func isCipher(s string) bool { return strings.HasPrefix(s, "ENC[AES256_GCM,") }

// view is o's body as diff compares and shows it: the sops: block left
// out (kustomize-controller removes it), a Secret's stringData merged into
// its data as the API server does, and every secret value hidden.
func (st *State) view(o fluxbuild.Object) map[string]any {
	body := make(map[string]any, len(o.Body))
	for k, v := range o.Body {
		if k != "sops" {
			body[k] = v
		}
	}
	secret, _ := st.secretMaterial(o)
	switch {
	case isSecret(o):
		data := map[string]any{}
		if m, ok := body["data"].(map[string]any); ok {
			for k, v := range m {
				s, _ := v.(string)
				if b, err := base64.StdEncoding.DecodeString(s); err == nil && !isCipher(s) {
					s = string(b)
				}
				data[k] = hidden{s, isCipher(s)}
			}
		}
		if m, ok := body["stringData"].(map[string]any); ok {
			for k, v := range m {
				s, _ := v.(string)
				data[k] = hidden{s, isCipher(s)}
			}
		}
		delete(body, "stringData")
		delete(body, "data")
		if len(data) > 0 {
			body["data"] = data
		}
	case secret:
		for k, v := range body {
			if k != "apiVersion" && k != "kind" && k != "metadata" {
				body[k] = hideAll(v)
			}
		}
	}
	return hideCiphertext(body).(map[string]any)
}

// hideAll hides every leaf of v.
func hideAll(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, c := range v {
			out[k] = hideAll(c)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, c := range v {
			out[i] = hideAll(c)
		}
		return out
	case hidden:
		return v
	}
	b, _ := json.Marshal(v)
	return hidden{v: string(b)}
}

// hideCiphertext copies v with every SOPS ciphertext hidden, wherever it
// is left (a file no key opened).
func hideCiphertext(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, c := range v {
			out[k] = hideCiphertext(c)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, c := range v {
			out[i] = hideCiphertext(c)
		}
		return out
	case string:
		if isCipher(v) {
			return hidden{v, true}
		}
	}
	return v
}

// secretLeaf reports whether v is a secret value, of an object or of a
// HelmRelease's values.
func secretLeaf(v any) bool {
	switch v.(type) {
	case hidden, chartvalues.Secret:
		return true
	}
	return false
}

// sameSecret compares two secret values; cipher reports that both are
// ciphertext, so that a difference may be the same value encrypted anew.
func sameSecret(a, b any) (same, cipher bool) {
	switch a := a.(type) {
	case hidden:
		b, ok := b.(hidden)
		return ok && a == b, ok && a.cipher && b.cipher
	case chartvalues.Secret:
		b, ok := b.(chartvalues.Secret)
		return ok && a.Equal(b), false
	}
	return false, false
}

// equal compares two views or values, secret values by value.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case hidden, chartvalues.Secret:
		same, _ := sameSecret(a, b)
		return same
	}
	return reflect.DeepEqual(a, b)
}

// shown returns what the two sides print as: secret values as "(secret)",
// and on the new side "(secret, changed)" where the value differs from
// the old side's at the same place. cipher reports a difference between
// two ciphertexts.
func shown(a, b any) (sa, sb any, cipher bool) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		oa, ob := make(map[string]any, len(am)), make(map[string]any, len(bm))
		for k, av := range am {
			if bv, ok := bm[k]; ok {
				var c bool
				oa[k], ob[k], c = shown(av, bv)
				cipher = cipher || c
			} else {
				oa[k] = masked(av)
			}
		}
		for k, bv := range bm {
			if _, ok := am[k]; !ok {
				ob[k] = masked(bv)
			}
		}
		return oa, ob, cipher
	}
	if secretLeaf(a) || secretLeaf(b) {
		sa, sb = masked(a), masked(b)
		if same, c := sameSecret(a, b); !same {
			sb, cipher = secretChanged, c
			if !secretLeaf(b) {
				sb = masked(b)
			}
		}
		return sa, sb, cipher
	}
	return masked(a), masked(b), false
}

// masked copies v with every secret value replaced by "(secret)".
func masked(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, c := range v {
			out[k] = masked(c)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, c := range v {
			out[i] = masked(c)
		}
		return out
	case hidden, chartvalues.Secret:
		return secretText
	}
	return v
}

// yamlText prints a view as YAML, keys sorted; "" for nothing.
func yamlText(v any) string {
	if v == nil {
		return ""
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return "{}\n"
	}
	b, err := sigsyaml.Marshal(v)
	if err != nil {
		return "(cannot be printed: " + err.Error() + ")\n"
	}
	return string(b)
}

// lineDiff is the unified diff of two views as YAML, without its file
// header: its hunks, each starting with an "@@" line that ends with the
// YAML path of its first change (as git names the function a hunk is in);
// cipher passes shown's through.
func lineDiff(a, b any) (diff []string, cipher bool) {
	sa, sb, cipher := shown(a, b)
	ta, tb := yamlText(sa), yamlText(sb)
	text := udiff.Unified("a", "b", ta, tb)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for len(lines) > 0 && (strings.HasPrefix(lines[0], "--- ") || strings.HasPrefix(lines[0], "+++ ")) {
		lines = lines[1:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil, cipher
	}
	old, new := strings.Split(ta, "\n"), strings.Split(tb, "\n")
	for i, l := range lines {
		var from, to int
		if _, err := fmt.Sscanf(l, "@@ -%d", &from); err != nil || !strings.HasPrefix(l, "@@ ") {
			continue
		}
		if _, rest, ok := strings.Cut(l, " +"); ok {
			fmt.Sscanf(rest, "%d", &to)
		}
		// Walk the hunk to its first change, on the side that has it.
		oi, ni := from-1, to-1
		for _, h := range lines[i+1:] {
			if h == "" || h[0] == ' ' {
				oi, ni = oi+1, ni+1
				continue
			}
			p := ""
			switch h[0] {
			case '-':
				p = yamlPath(old, oi)
			case '+':
				p = yamlPath(new, ni)
			}
			if p != "" {
				lines[i] += " " + p
			}
			break
		}
	}
	return lines, cipher
}

// yamlPath names the mappings that hold line i of YAML text as sigs.k8s.io/yaml
// writes it (two spaces an indent; list items at their key's indent):
// keys joined by dots, a list item as "[]".
func yamlPath(lines []string, i int) string {
	if i < 0 || i >= len(lines) {
		return ""
	}
	var path []string
	level := depthOf(lines[i])
	for j := i - 1; j >= 0 && level > 0; j-- {
		d := depthOf(lines[j])
		t := strings.TrimSpace(lines[j])
		if d >= level || t == "" {
			continue
		}
		if item, ok := strings.CutPrefix(t, "-"); ok {
			// Deeper than the item's own keys: under its first one.
			if key, _, ok := strings.Cut(strings.TrimSpace(item), ":"); ok && level > d+3 {
				path = append(path, key)
			}
			path = append(path, "[]")
		} else if key, _, ok := strings.Cut(t, ":"); ok {
			path = append(path, key)
		} else {
			return ""
		}
		level = d
	}
	slices.Reverse(path)
	return strings.ReplaceAll(strings.Join(path, "."), ".[]", "[]")
}

// depthOf is a line's indentation, a list item one deeper than its dash.
func depthOf(l string) int {
	t := strings.TrimLeft(l, " ")
	d := 2 * (len(l) - len(t))
	if strings.HasPrefix(t, "- ") || t == "-" {
		d++
	}
	return d
}
