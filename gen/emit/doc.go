// Package emit writes the checked units and the config field tree as Go
// (with jennifer) and as a JSON Schema: the files of zz_generated.
package emit
