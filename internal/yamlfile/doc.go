// Package yamlfile reads YAML. It decodes a file strictly into a Go value:
// every unknown key, duplicate key, wrong type and syntax error is reported
// with its line and YAML path, all at once, and the input is bounded (size,
// alias expansion). It keeps the position of every key, so later checks
// can point at lines. It is also the one reader of the YAML opencenter
// writes and reads back: rendered manifests (ParseAll) and the documents
// sops encrypts (ParseDocument, which keeps comments).
//
// Plain block YAML, the shape configs and rendered files are written in, is
// read by a scanner of its own (held to yaml.v3 by differential tests);
// anything else by yaml.v3.
package yamlfile
