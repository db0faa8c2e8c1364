// Package config is the typed cluster config (.<cluster>-config.yaml): its Go
// types and its one load (Load, Parse), which decodes strictly with
// line-accurate diagnostics, applies the defaults and validates.
//
// Services are typed struct fields, never a map, so a misspelled service is a
// load error and the descriptor compiler can check every field path. Defaults
// are compiled by opencenter-gen from `default:"..."` struct tags and the
// descriptors' namespaces; nothing here applies them by reflection. The
// generated catalog imports this package, so it hands the load its defaults
// and its table-driven checks by registering itself (RegisterCatalog).
package config
