package importv2

import (
	_ "embed"
	"maps"
	"reflect"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

//go:embed clidefaults.yaml
var cliDefaultsYAML string

// dropDefaults removes from the input's services every key that still
// holds openCenter-cli's default (clidefaults.yaml, fqdn substituted):
// rendering plumbing that opencenter's descriptors replace. It returns how
// many it removed; a key with any other value stays, for the report.
func (t *translation) dropDefaults(fqdn string) int {
	var defaults map[string]map[string]any
	if err := yaml.Unmarshal([]byte(strings.ReplaceAll(cliDefaultsYAML, "{fqdn}", fqdn)), &defaults); err != nil {
		panic("importv2: clidefaults.yaml: " + err.Error()) // embedded: a test reads it
	}
	v, _ := t.peek("opencenter", "services")
	svcs, _ := v.(map[string]any)
	n := 0
	for _, name := range slices.Sorted(maps.Keys(svcs)) {
		s, _ := svcs[name].(map[string]any)
		for k, v := range defaults[name] {
			if got, ok := s[k]; ok && reflect.DeepEqual(got, v) {
				t.take("opencenter", "services", name, k)
				n++
			}
		}
	}
	return n
}
