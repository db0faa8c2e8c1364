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
	nodePool := "apiVersion: kafka.strimzi.io/v1\nkind: KafkaNodePool\nmetadata: {name: p, namespace: kafka}\nspec:\n  replicas: 1\n  roles: [broker]\n  storage: {type: ephemeral}\n"
	rbacDefinition := "apiVersion: rbacmanager.reactiveops.io/v1beta1\nkind: RBACDefinition\nmetadata: {name: d}\nrbacBindings:\n  - name: admins\n    subjects: [{kind: Group, name: admins}]\n    clusterRoleBindings: [{clusterRole: cluster-admin}]\n"
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
		{"node pool", nodePool, ""},
		{"node pool of a deprecated version", strings.Replace(nodePool, "/v1\n", "/v1beta2\n", 1), "deprecated version: Version v1beta2 of the KafkaNodePool API is deprecated"},
		{"Kafka with the node resources v1 moved to node pools", "apiVersion: kafka.strimzi.io/v1\nkind: Kafka\nmetadata: {name: k, namespace: kafka}\nspec:\n  kafka:\n    listeners: [{name: plain, port: 9092, type: internal, tls: false}]\n    resources: {requests: {cpu: 1}}\n", "unknown field spec.kafka.resources"},
		{"node pool without roles", strings.Replace(nodePool, "  roles: [broker]\n", "", 1), "roles"},
		{"RBACDefinition", rbacDefinition, ""},
		{"RBACDefinition with a subject of no kind the CRD knows", strings.Replace(rbacDefinition, "kind: Group", "kind: Team", 1), "Unsupported value"},
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
