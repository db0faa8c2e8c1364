package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// ExplainCmd documents the config from the generated field index.
type ExplainCmd struct {
	Output string `enum:"text,json" default:"text" help:"Output format: text or json."`
	Path   string `arg:"" optional:"" help:"Dotted config path, e.g. services.keycloak, gitops.overlay_units.customer_managed, secrets.services.cert-manager (the leading 'opencenter.' may be left out)."`
}

// fieldJSON is one field in explain's JSON output.
type fieldJSON struct {
	Path     string   `json:"path"`
	Kind     string   `json:"kind"`
	GoType   string   `json:"go_type"`
	Default  string   `json:"default,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	Secret   bool     `json:"secret"`
	Required bool     `json:"required"`
	// RequiredWhen says when a field that is not always required must be set.
	RequiredWhen string `json:"required_when,omitempty"`
	Doc          string `json:"doc,omitempty"`
	Format       string `json:"format,omitempty"`
	KeyFormat    string `json:"key_format,omitempty"`
}

type explainJSON struct {
	Field  *fieldJSON  `json:"field,omitempty"`
	Fields []fieldJSON `json:"fields,omitempty"`
}

// Run explains a path: the sections, an object's fields, or a leaf.
func (c *ExplainCmd) Run(s *Streams) error {
	var self *catalog.Field
	var children []catalog.Field
	if c.Path == "" {
		children = append(childrenOf(""), childrenOf("opencenter")...)
	} else {
		f, ok := lookupField(c.Path)
		if !ok {
			return badInput(fmt.Errorf("unknown config path %q%s; run 'opencenter explain' for the sections", c.Path, suggestPath(c.Path)))
		}
		self = f
		children = childrenOf(containerPath(f))
	}
	if c.Output == "json" {
		out := explainJSON{}
		if self != nil {
			j := toJSON(*self)
			out.Field = &j
		}
		for _, f := range children {
			out.Fields = append(out.Fields, toJSON(f))
		}
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if self != nil {
		explainField(s.Out, *self)
		explainUnit(s.Out, self.Path)
	}
	if len(children) > 0 {
		if self != nil {
			fmt.Fprintln(s.Out)
		}
		tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tTYPE\tDEFAULT\tREQUIRED\tDESCRIPTION")
		for _, f := range children {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", lastKey(f.Path), typeText(f), dash(f.Default), requiredShort(f), firstSentence(f.Doc))
		}
		tw.Flush()
	}
	return nil
}

func explainField(w io.Writer, f catalog.Field) {
	fmt.Fprintf(w, "%s\n", f.Path)
	fmt.Fprintf(w, "  type:     %s (Go %s)\n", typeText(f), f.GoType)
	if f.Default != "" {
		fmt.Fprintf(w, "  default:  %s\n", f.Default)
	}
	if len(f.Enum) > 0 {
		fmt.Fprintf(w, "  allowed:  %s\n", strings.Join(f.Enum, ", "))
	}
	if f.KeyFormat != "" {
		fmt.Fprintf(w, "  keys:     %s\n", config.FormatDocs[f.KeyFormat])
	}
	if f.Format != "" {
		label := "format: "
		switch f.Kind {
		case catalog.KindList:
			label = "items:  "
		case catalog.KindMap:
			label = "values: "
		}
		fmt.Fprintf(w, "  %s  %s\n", label, config.FormatDocs[f.Format])
	}
	fmt.Fprintf(w, "  required: %s\n", requiredText(f))
	fmt.Fprintf(w, "  secret:   %s\n", yesNo(f.Secret))
	if f.Doc != "" {
		fmt.Fprintf(w, "\n  %s\n", f.Doc)
	}
}

func toJSON(f catalog.Field) fieldJSON {
	return fieldJSON{Path: f.Path, Kind: string(f.Kind), GoType: f.GoType, Default: f.Default, Enum: f.Enum, Format: f.Format, KeyFormat: f.KeyFormat, Secret: f.Secret, Required: f.Required, RequiredWhen: f.RequiredWhen, Doc: f.Doc}
}

// requiredShort is requiredText for a table of siblings: "-" for no, and
// the siblings' own paths shortened to their keys ("when storage is s3").
func requiredShort(f catalog.Field) string {
	t := requiredText(f)
	if t == "no" {
		return "-"
	}
	parent := strings.TrimPrefix(f.Path[:len(f.Path)-len(lastKey(f.Path))], "opencenter.")
	return strings.ReplaceAll(t, parent, "")
}

// requiredText is yes, no, or when a field is required ("when services.loki.storage is s3").
func requiredText(f catalog.Field) string {
	if f.RequiredWhen != "" && !f.Required {
		return "when " + f.RequiredWhen
	}
	return yesNo(f.Required)
}

// lookupField finds a user path (a.b.c, list elements without "[]"), as
// written or under opencenter.
func lookupField(p string) (*catalog.Field, bool) {
	for _, parent := range []string{"", "opencenter"} {
		var f *catalog.Field
		for _, seg := range strings.Split(strings.TrimSuffix(p, "."), ".") {
			if f != nil && f.Kind == catalog.KindList {
				parent += "[]"
			}
			parent = strings.TrimPrefix(parent+"."+seg, ".")
			if f, _ = lookupExact(parent); f == nil {
				break
			}
		}
		if f != nil {
			return f, true
		}
	}
	return nil, false
}

// containerPath is the prefix of a field's children: the object itself, or
// the element of a list of objects.
func containerPath(f *catalog.Field) string {
	if f.Kind == catalog.KindList {
		return f.Path + "[]"
	}
	return f.Path
}

// childrenOf lists the fields directly below prefix ("" for the root).
func childrenOf(prefix string) []catalog.Field {
	var out []catalog.Field
	for _, f := range generated.Fields {
		rest, ok := f.Path, prefix == ""
		if !ok {
			rest, ok = strings.CutPrefix(f.Path, prefix+".")
		}
		if ok && rest != "" && !strings.ContainsAny(rest, ".[") {
			out = append(out, f)
		}
	}
	return out
}

// suggestPath proposes a corrected path: each segment that does not exist
// replaced by the closest key at its level, when every one has a close key.
func suggestPath(p string) string {
	for _, parent := range []string{"", "opencenter"} {
		var fixed []string
		for _, seg := range strings.Split(p, ".") {
			var keys []string
			for _, c := range childrenOf(parent) {
				keys = append(keys, lastKey(c.Path))
			}
			if !slices.Contains(keys, seg) {
				if seg = diag.Closest(seg, keys); seg == "" {
					break
				}
			}
			fixed = append(fixed, seg)
			parent = strings.TrimPrefix(parent+"."+seg, ".")
			if f, _ := lookupExact(parent); f != nil && f.Kind == catalog.KindList {
				parent += "[]"
			}
		}
		if len(fixed) == len(strings.Split(p, ".")) {
			return fmt.Sprintf(" (did you mean %q?)", strings.Join(fixed, "."))
		}
	}
	return ""
}

func lookupExact(p string) (*catalog.Field, bool) {
	for i := range generated.Fields {
		if generated.Fields[i].Path == p {
			return &generated.Fields[i], true
		}
	}
	return nil, false
}

func lastKey(p string) string {
	if i := strings.LastIndexAny(p, ".]"); i >= 0 {
		return p[i+1:]
	}
	return p
}

func typeText(f catalog.Field) string {
	t := string(f.Kind)
	if len(f.Enum) > 0 {
		t = strings.Join(f.Enum, "|")
	}
	if f.Secret {
		t += " (secret)"
	}
	return t
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// explainUnit shows, for a service's path, the overlay unit it gates: what it
// requires, its Flux units and the base paths they apply, and the base
// releases that hold them.
func explainUnit(w io.Writer, path string) {
	for i := range generated.Units {
		u := &generated.Units[i]
		if u.Service == "" || u.ServicePath() != path {
			continue
		}
		fmt.Fprintf(w, "\nunit %s (layer %s): %s\n", u.Name, u.Layer, u.Description)
		fmt.Fprintf(w, "  requires:   %s\n", list(u.Requires))
		for _, fu := range u.FluxUnits {
			where := fu.Path
			if fu.When.Eval != nil {
				where += ", when " + fu.When.Text
			}
			fmt.Fprintf(w, "  flux unit:  %s (%s)\n", fu.Name, where)
		}
		if u.Releases != nil {
			fmt.Fprintf(w, "  base releases holding its paths: %s\n", strings.Join(u.Releases, ", "))
		}
	}
}
