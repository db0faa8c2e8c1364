// Package config is the typed cluster config (.<cluster>-config.yaml): its Go
// types, strict loading with line-accurate diagnostics, and validation.
//
// Services are typed struct fields, never a map, so a misspelled service is a
// load error and the descriptor compiler can check every field path. Defaults
// are compiled by opencenter-gen from `default:"..."` struct tags and the
// descriptors' namespaces; nothing here applies them by reflection.
package config
