package main

import generated "github.com/opencenter-dev/opencenter/zz_generated"

// SchemaCmd prints the JSON Schema of the config.
type SchemaCmd struct{}

// Run prints the JSON Schema (draft 2020-12) the generator compiled from the config types.
func (SchemaCmd) Run(s *Streams) error {
	_, err := s.Out.Write(generated.Schema)
	return err
}

// schemaJSON is the JSON Schema of the config.
func schemaJSON() []byte { return generated.Schema }
