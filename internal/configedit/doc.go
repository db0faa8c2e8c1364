// Package configedit changes one scalar of a YAML document in its text, so
// that comments, blank lines, key order, quoting and indentation stay as the
// author wrote them: `opencenter enable` and `disable` edit cluster configs
// that people maintain by hand (and sops encrypted in place) with it.
//
// Set locates the value with the positions of the yaml.v3 node tree, then
// splices bytes: it replaces the scalar's own bytes when the key exists, and
// otherwise inserts lines indented as the file indents (or, in a flow
// mapping such as `services: {}`, an entry inside its braces), creating the
// missing parent mappings. Every other byte of the document is kept.
//
// What it cannot edit faithfully it refuses, naming the path: aliases and
// anchored nodes (the change would show up elsewhere), tagged and block
// scalars, values spanning several lines, lists on the path. Each edit is
// checked by parsing the result: the document must decode to the old one with
// exactly that value changed, or Set returns an error and no bytes.
package configedit
