package chartvalues

import (
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/helmvalues"
)

// Source is an object a valuesFrom reference may read.
type Source struct {
	// Body is the whole object, as a build gives it.
	Body map[string]any
	// Secret marks secret material: its values come back as Secret leaves.
	Secret bool
	// Unknown marks an object whose content cannot be read here (SOPS
	// ciphertext no key opened, a Secret kept outside the repository):
	// Compose leaves its values out, where helm-controller would merge them.
	Unknown bool
}

// Lookup finds the Secret or ConfigMap a reference names in the release's
// namespace; found is false when the cluster would not have it.
type Lookup func(kind, namespace, name string) (src Source, found bool)

// ErrTargetPath is returned for a reference with a targetPath: Helm's
// --set parser, which helm-controller uses for it, is not evaluated here.
var ErrTargetPath = errors.New("a targetPath is not evaluated offline")

// Compose returns the values helm-controller passes to the chart of a
// HelmRelease in namespace with this spec, or the error that makes it fail
// the release (a reference it does not find, unless optional; a key
// missing, unless optional; values that are not YAML of a mapping; a kind
// other than Secret and ConfigMap), or ErrTargetPath. Sources that lookup
// marks Unknown are left out.
func Compose(namespace string, spec *helmv2.HelmReleaseSpec, lookup Lookup) (map[string]any, error) {
	result := map[string]any{}
	for _, ref := range spec.ValuesFrom {
		at := fmt.Sprintf("valuesFrom %s %s/%s", ref.Kind, namespace, ref.Name)
		if ref.Kind != "Secret" && ref.Kind != "ConfigMap" {
			return nil, fmt.Errorf("%s: helm-controller reads only Secrets and ConfigMaps", at)
		}
		src, found := lookup(ref.Kind, namespace, ref.Name)
		if !found {
			if ref.Optional {
				continue
			}
			return nil, fmt.Errorf("%s: not found", at)
		}
		if src.Unknown {
			continue
		}
		data, found, err := Data(ref.Kind, src.Body, ref.GetValuesKey())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at, err)
		}
		if !found {
			if ref.Optional {
				continue
			}
			return nil, fmt.Errorf("%s: key %s not found", at, ref.GetValuesKey())
		}
		if ref.TargetPath != "" {
			return nil, fmt.Errorf("%s: targetPath %s: %w", at, ref.TargetPath, ErrTargetPath)
		}
		var values map[string]any
		if err := sigsyaml.Unmarshal(data, &values); err != nil {
			return nil, fmt.Errorf("%s: key %s: Helm cannot read it as values: %v", at, ref.GetValuesKey(), err)
		}
		if src.Secret {
			values = hide(values)
		}
		result = helmvalues.Merge(result, values)
	}
	var values map[string]any
	if spec.Values != nil {
		// helm-controller ignores values it cannot read (HelmRelease.GetValues).
		_ = sigsyaml.Unmarshal(spec.Values.Raw, &values)
	}
	return helmvalues.Merge(result, values), nil
}

// Data returns the bytes helm-controller reads for key from a Secret or a
// ConfigMap as the API server stores it: a Secret's data (base64), where
// stringData has been merged and wins; a ConfigMap's data, never its
// binaryData. found is false when the key is not there.
func Data(kind string, body map[string]any, key string) (data []byte, found bool, err error) {
	field := func(name string) (string, bool) {
		m, _ := body[name].(map[string]any)
		v, ok := m[key]
		s, _ := v.(string)
		return s, ok
	}
	if kind == "ConfigMap" {
		s, ok := field("data")
		return []byte(s), ok, nil
	}
	if s, ok := field("stringData"); ok {
		return []byte(s), true, nil
	}
	s, ok := field("data")
	if !ok {
		return nil, false, nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, true, fmt.Errorf("data.%s is not base64: the API server refuses the Secret", key)
	}
	return b, true, nil
}

// Secret is a value read from secret material. It compares by value
// (Equal) and prints as "(secret)", whatever formats it.
type Secret struct{ v any }

// Equal reports whether two secret values are the same.
func (s Secret) Equal(o Secret) bool { return reflect.DeepEqual(s.v, o.v) }

// String is what a secret value prints as.
func (Secret) String() string { return "(secret)" }

// GoString keeps %#v from printing the value.
func (Secret) GoString() string { return "(secret)" }

// MarshalJSON keeps JSON (and YAML written through JSON) from holding the value.
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"(secret)"`), nil }

// hide wraps every leaf of values (anything but a mapping) as a Secret:
// mappings still merge key by key, as they do in helm-controller.
func hide(values map[string]any) map[string]any {
	out := make(map[string]any, len(values))
	for k, v := range values {
		if m, ok := v.(map[string]any); ok {
			out[k] = hide(m)
		} else {
			out[k] = Secret{v}
		}
	}
	return out
}
