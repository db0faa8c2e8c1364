// Package yamlfile decodes a YAML file strictly into a Go value: every unknown
// key, duplicate key, wrong type and syntax error is reported with its line and
// YAML path, all at once, and the input is bounded (size, alias expansion).
// It also keeps the position of every key, so later checks can point at lines.
// Plain block YAML, the shape configs are written in, is read by a scanner
// of its own (held to yaml.v3 by differential tests); anything else by
// yaml.v3.
package yamlfile
