package toolcheck

import (
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// TestValidateAsTheAPIServer: objects are validated as the API server
// would: defaults applied before CEL rules (an HTTPRoute's parentRef group,
// a backendRef's kind), whole numbers read as integers, and what the CRD
// refuses is reported, for each project's CRDs.
func TestValidateAsTheAPIServer(t *testing.T) {
	crds, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	route := `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: n}
spec:
  parentRefs: [{name: g, namespace: gw}]
  hostnames: [a.example.com]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
`
	cases := []struct {
		name, text, want string
	}{
		{"valid route", route, ""},
		{"Service backend without port", strings.Replace(route, ", port: 80", "", 1), "Must have port for Service reference"},
		{"unknown field", strings.Replace(route, "hostnames:", "hostname: x\n  hostnames:", 1), "unknown field"},
		{"pool", "apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata: {name: p, namespace: metallb-system}\nspec: {addresses: [10.0.0.0/28]}\n", ""},
		{"ACME issuer without a server", "apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata: {name: i}\nspec: {acme: {privateKeySecretRef: {name: k}}}\n", "server"},
		{"EnvoyProxy with an unknown field", "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyProxy\nmetadata: {name: p, namespace: n}\nspec: {replicas: 2}\n", "unknown field"},
		{"pool without addresses", "apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata: {name: p, namespace: metallb-system}\nspec: {autoAssign: yes}\n", "addresses"},
	}
	for _, tc := range cases {
		var obj map[string]any
		if err := sigsyaml.Unmarshal([]byte(tc.text), &obj); err != nil {
			t.Fatal(err)
		}
		got := strings.Join(crds.Validate(obj), "; ")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
