// Package table defines the shape of the render tables that opencenter-gen
// compiles from the descriptors into zz_generated: units with their gates,
// sources, Flux units and overlay files, and the field index of the config.
// The renderer and the CLI read these tables; nothing here parses YAML.
package table
