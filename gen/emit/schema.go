package emit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
)

// SchemaID is the $id of the emitted JSON Schema.
const SchemaID = "https://opencenter.dev/schemas/cluster-config.v1.json"

// Schema emits the JSON Schema (draft 2020-12) of the config. encoding/json
// sorts map keys, so the bytes are deterministic.
func Schema(cat *check.Catalog) ([]byte, error) {
	root, err := schemaOf(cat, cat.Model.Root)
	if err != nil {
		return nil, err
	}
	// The sops: block of a config whose secrets are encrypted in place is
	// not config: the loader decrypts with it and drops it.
	root["properties"].(map[string]any)["sops"] = map[string]any{
		"type":        "object",
		"description": "SOPS metadata of a config whose secrets: are encrypted in place (written by sops or `opencenter secrets encrypt`); opencenter decrypts with the age keys sops would use.",
	}
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaID
	root["title"] = "opencenter cluster config (.<cluster>-config.yaml)"
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func schemaOf(cat *check.Catalog, n *model.Node) (map[string]any, error) {
	s := map[string]any{}
	if n.Doc != "" {
		s["description"] = n.Doc
	}
	if r := cat.Requirement(n); r != nil {
		s["description"] = strings.TrimSpace(n.Doc + " Required when " + r.Text + ".")
	}
	switch n.Kind {
	case catalog.KindObject:
		s["type"] = "object"
		s["additionalProperties"] = false
		props := map[string]any{}
		var req []string
		for _, c := range n.Children {
			cs, err := schemaOf(cat, c)
			if err != nil {
				return nil, err
			}
			props[c.JSON] = cs
			if c.Required {
				req = append(req, c.JSON)
			}
		}
		s["properties"] = props
		if len(req) > 0 {
			s["required"] = req
		}
	case catalog.KindList:
		s["type"] = "array"
		items, err := schemaOf(cat, n.Elem)
		if err != nil {
			return nil, err
		}
		s["items"] = items
		formatSchema(items, n.Format)
	case catalog.KindMap:
		s["type"] = "object"
		vals, err := schemaOf(cat, n.Elem)
		if err != nil {
			return nil, err
		}
		s["additionalProperties"] = vals
		formatSchema(vals, n.Format)
		if n.KeyFormat != "" {
			keys := map[string]any{}
			formatSchema(keys, n.KeyFormat)
			s["propertyNames"] = keys
		}
	case catalog.KindString:
		s["type"] = "string"
		if len(n.Enum) > 0 {
			s["enum"] = n.Enum
		}
		formatSchema(s, n.Format)
	case catalog.KindBool:
		s["type"] = "boolean"
	case catalog.KindInt:
		s["type"] = "integer"
	case catalog.KindNumber:
		s["type"] = "number"
	}
	if cat.Default(n) != "" {
		s["default"] = typedDefault(n, cat.Default(n))
	}
	return s, nil
}

// formatSchema sets the pattern and length bound of a string's format
// (check.Formats has made sure the format exists).
func formatSchema(s map[string]any, format string) {
	if format == "" {
		return
	}
	s["pattern"] = config.Formats[format]
	if max, ok := config.FormatMaxLength[format]; ok {
		s["maxLength"] = max
	}
}

func typedDefault(n *model.Node, def string) any {
	switch n.Kind {
	case catalog.KindInt:
		v, _ := strconv.Atoi(def)
		return v
	case catalog.KindNumber:
		v, _ := strconv.ParseFloat(def, 64)
		return v
	case catalog.KindBool:
		return def == "true"
	}
	return def
}
