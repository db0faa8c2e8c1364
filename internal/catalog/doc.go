// Package catalog is the runtime catalog: the shape of the tables that
// opencenter-gen compiles from the descriptors and the base index into
// zz_generated (units with their gates, sources, Flux units and overlay
// files; base releases; the field index of the config). The renderer and the
// CLI read those tables; nothing here parses YAML.
package catalog
