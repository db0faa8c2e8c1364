// Package escape writes config values into overlay files. The template
// compiler (gen/templates) works out, from a template's text, the context
// of every value it prints, and the compiled template (zz_generated) calls
// the escaper of that context:
//
//   - Scalar: a YAML scalar (a value, a sequence item, or a line of YAML
//     embedded in a block scalar): plain when YAML reads that back as the
//     same string, double-quoted with escapes otherwise;
//   - Key: a YAML mapping key;
//   - Comment: text after a # (or ; in INI), where only line breaks and
//     control characters matter;
//   - GcfgValue, GcfgSubsection: a value or [section "subsection"] of a
//     git-config style INI file (cloud.conf of OpenStack and vSphere
//     drivers, parsed by gcfg), quoted with gcfg's escapes when needed;
//   - INIValue: a value of an INI file without escapes (AWS credentials):
//     written as it is, or refused;
//   - Map, Seq: a YAML block mapping or sequence (toYaml | nindent).
//
// Each keeps a value one value whatever it holds: no value can add a key, a
// document, a section or a line. What a context cannot hold is an error,
// which the compiled template reports with the config path of the value.
// YAML output goes through internal/yamlenc, the one YAML writer.
package escape
