package gatewayapi

import "strings"

// HostnameMatches reports whether listener hostname l takes routes for
// name: an empty l takes every name; a wildcard *.d takes every name that
// ends in .d with one label or more before it (a wildcard name too); any
// other l only itself. These are the Gateway API's rules, as Envoy Gateway
// applies them (its own internal/gatewayapi package, computeHosts).
func HostnameMatches(l, name string) bool {
	if suffix, ok := strings.CutPrefix(l, "*"); ok {
		return len(name) > len(suffix) && strings.HasSuffix(name, suffix)
	}
	return l == "" || l == name
}
