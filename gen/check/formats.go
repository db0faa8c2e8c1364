package check

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Formats checks every `format` and `key_format` struct tag of the config
// types: the format exists (a key of config.Formats), `format` is on a
// string or on a list or map of strings (its items or values), and
// `key_format` on a map. Problems are reported at the field's declaration,
// relative to root.
func Formats(m *model.Model, root string) error {
	var diags diag.List
	report := func(n *model.Node, msg string) {
		diags = append(diags, diag.Diag{File: rel(root, n.Pos.Filename), Line: n.Pos.Line, Col: n.Pos.Column, Path: n.Path, Msg: msg})
	}
	var visit func(n *model.Node)
	visit = func(n *model.Node) {
		if n.Format != "" {
			strs := n.Kind == catalog.KindString ||
				(n.Kind == catalog.KindList || n.Kind == catalog.KindMap) && n.Elem.Kind == catalog.KindString
			switch {
			case !known(n.Format):
				report(n, "format "+strconv.Quote(n.Format)+" is not a format: expected one of "+formatNames())
			case !strs:
				report(n, "format "+strconv.Quote(n.Format)+" on a "+string(n.Kind)+": a format is for a string, or the strings of a list or map")
			}
		}
		if n.KeyFormat != "" {
			switch {
			case !known(n.KeyFormat):
				report(n, "key_format "+strconv.Quote(n.KeyFormat)+" is not a format: expected one of "+formatNames())
			case n.Kind != catalog.KindMap:
				report(n, "key_format "+strconv.Quote(n.KeyFormat)+" on a "+string(n.Kind)+": a key format is for a map")
			}
		}
		if (n.Format != "" || n.KeyFormat != "") && (strings.Contains(n.Path, "[]") || strings.Contains(n.Path, ".*")) &&
			(n.Kind != catalog.KindString || strings.Count(n.Path, "[]") > 1 || strings.Contains(n.Path, ".*")) {
			report(n, "a format inside a list's elements is checked at load only on a string field of a list that is not itself inside a list or map: check this one in its service's Validate and drop the tag")
		}
		if n.Elem != nil {
			visit(n.Elem)
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(m.Root)
	return diags.Err()
}

func known(format string) bool { _, ok := config.Formats[format]; return ok }

func formatNames() string { return strings.Join(slices.Sorted(maps.Keys(config.Formats)), ", ") }
