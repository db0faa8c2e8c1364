package catalog

// Kind is the shape of a config field.
type Kind string

// The kinds of config fields.
const (
	KindObject Kind = "object"
	KindString Kind = "string"
	KindBool   Kind = "bool"
	KindInt    Kind = "int"
	KindNumber Kind = "number"
	KindList   Kind = "list"
	KindMap    Kind = "map"
)

// Field is one entry of the field index: a path of the config and what is
// known about it, for explain, enable --set and secrets. It holds no
// accessor: code that reads a field's value is generated, typed, where it
// is needed (the load's checks, the unit tables).
type Field struct {
	// Path is the dotted YAML path from the config root; list elements appear as "[]".
	Path string
	// Kind is the field's shape.
	Kind Kind
	// GoType is the Go type, e.g. "*int" or "config.Provider".
	GoType string
	// Default is the default value as written in YAML, "" for none.
	Default string
	// Enum lists the allowed values of an enumeration, sorted.
	Enum []string
	// Doc is the field's doc comment.
	Doc string
	// Secret is true for secret material (anything under secrets:).
	Secret bool
	// Required is true when the key must be present in its mapping.
	Required bool
	// Format names the pattern a string must match (config.Formats), "" for
	// none; on a list or a map, each item or value.
	Format string
	// KeyFormat names the pattern each key of a map must match, "" for none.
	KeyFormat string
	// RequiredWhen says when the field must be set, from its required_when tag
	// ("services.loki.storage is s3 or swift"); "" for none.
	RequiredWhen string
}
