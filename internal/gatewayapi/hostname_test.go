package gatewayapi

import "testing"

// TestHostnameMatches holds HostnameMatches to the examples of the Gateway
// API's HTTPRoute hostnames documentation (sigs.k8s.io/gateway-api
// apis/v1/httproute_types.go), which Envoy Gateway's route translation
// applies (a route no listener matches is not Accepted).
func TestHostnameMatches(t *testing.T) {
	for _, tc := range []struct {
		l, name string
		want    bool
	}{
		{"", "a.example", true},
		{"a.example", "a.example", true},
		{"a.example", "b.example", false},
		{"*.example", "a.example", true},
		{"*.example", "a.b.example", true},
		{"*.example", "*.a.example", true},
		{"*.example", ".example", false}, // no label before the suffix
		{"*.example", "example", false},
		{"*.example", "a.example.org", false},
		{"*.a.example", "a.example", false},
		{"*.example.com", "testexample.com", false}, // the dot is part of the suffix
	} {
		if got := HostnameMatches(tc.l, tc.name); got != tc.want {
			t.Errorf("HostnameMatches(%q, %q) = %v, want %v", tc.l, tc.name, got, tc.want)
		}
	}
}
