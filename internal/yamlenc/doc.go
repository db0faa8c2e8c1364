// Package yamlenc is the one YAML writer of what opencenter emits. Marshal
// writes a value as block-style YAML with sorted keys, as
// sigs.k8s.io/yaml.Marshal does, without its JSON round trip and YAML
// re-parse, which dominated the cost of planning an overlay: JSON-shaped
// values (maps with string keys, slices, strings, numbers, bools, nil),
// and Go values as encoding/json would write them, the Kubernetes and Flux
// API types among them (see values.go). AppendScalar and AppendKey write
// single scalars for the compiled overlay templates.
//
// Whatever a string holds, it is written as one scalar that reads back as
// exactly that string: no raw control character, line break other than in a
// literal block, U+2028, U+2029, U+FEFF or non-character is ever written.
package yamlenc
