package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	sigsyaml "sigs.k8s.io/yaml"

	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// schemaInvalid lists the invalid configs whose error the JSON Schema can
// express (keys, types, required keys, enums, patterns); the others break
// cross-field rules that only the Go validation knows.
var schemaInvalid = []string{
	"cluster-name-not-dns-label", "customer-managed-repository-name-not-dns-label",
	"flux-interval-not-duration", "list-for-mapping", "mapping-for-list", "meta-name-not-dns-label",
	"missing-meta-name", "missing-provider", "missing-repository-url", "number-for-string",
	"repository-url-not-git-url", "repository-url-without-scheme", "string-for-bool",
	"unknown-key-in-list-item", "unknown-key-in-service", "unknown-provider", "unknown-service-key",
	"unknown-top-level-key", "meta-label-key-invalid", "meta-label-value-invalid", "customer-managed-secret-name-not-dns",
	"base-repo-secret-name-not-dns", "svc-kyverno-excluded-namespace-not-dns-label", "svc-postgres-watched-namespaces-comma",
	"gitops-repository-branch-not-git-ref", "svc-gateway-listener-hostname-invalid", "svc-gateway-listener-tls-secret-name-invalid",
	"svc-alert-proxy-account-id-not-digits", "svc-openstack-ccm-floating-network-name", "svc-cert-manager-route53-region-not-aws",
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(generated.Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("the emitted schema does not compile: %v", err)
	}
	return s
}

func yamlInstance(t *testing.T, name string) (any, error) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	j, err := sigsyaml.YAMLToJSON(b)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(j))
}

func TestSchemaValidatesConfigs(t *testing.T) {
	s := compileSchema(t)
	fixtures, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(fixtures) != 5 {
		t.Fatalf("fixtures: %v", fixtures)
	}
	for _, f := range fixtures {
		v, err := yamlInstance(t, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s should be valid:\n%v", f, err)
		}
	}
	for _, name := range schemaInvalid {
		f := "../../testdata/invalid/" + name + ".yaml"
		v, err := yamlInstance(t, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if s.Validate(v) == nil {
			t.Errorf("%s should be invalid under the schema", f)
		}
	}
	// Every schema-expressible case is still in the corpus.
	all, _ := filepath.Glob("../../testdata/invalid/*.yaml")
	for _, name := range schemaInvalid {
		if !slices.ContainsFunc(all, func(p string) bool { return strings.HasSuffix(p, "/"+name+".yaml") }) {
			t.Errorf("%s is not in testdata/invalid", name)
		}
	}
}

func TestSchemaCommand(t *testing.T) {
	code, stdout, _ := runCLI("schema")
	if code != 0 || stdout != string(generated.Schema) {
		t.Fatal("opencenter schema prints the embedded schema")
	}
	for _, want := range []string{`"$schema": "https://json-schema.org/draft/2020-12/schema"`, `"additionalProperties": false`, `"pattern"`, `"enum"`, `"default"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("schema lacks %s", want)
		}
	}
}
