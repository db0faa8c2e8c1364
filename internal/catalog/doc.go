// Package catalog is the runtime catalog: the shape of the tables that
// opencenter-gen compiles from the descriptors and the base index into
// zz_generated (units with their gates, sources, Flux units and overlay
// files; base releases; the field index of the config), and what the
// generated check of config's load reports through (Enum, Formats). The
// renderer and the CLI read the tables; nothing here parses YAML.
package catalog
