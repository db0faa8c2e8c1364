package plan

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/toolcheck"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestHelmValuesMatchChartSchemas: the values a template writes for a chart
// that ships a values.schema.json (charts[].values_schema) validate against
// it, as Helm validates them on install (the base's values are merged in
// then; the schema refuses unknown keys and values of the wrong type
// wherever they come from).
func TestHelmValuesMatchChartSchemas(t *testing.T) {
	plans := corpusPlans(t)
	checked := 0
	for _, u := range generated.Units {
		for _, ch := range u.Charts {
			if ch.ValuesSchema == nil {
				continue
			}
			checked++
			cs := ch.ValuesSchema
			text, err := toolcheck.ReadSchema(*cs)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource(cs.File, doc); err != nil {
				t.Fatal(err)
			}
			schema, err := c.Compile(cs.File)
			if err != nil {
				t.Fatalf("%s: %v", cs.File, err)
			}
			// The schema refuses what Helm would: an unknown key.
			bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"opencenter-unknown-key": 1}`)))
			if schema.Validate(bad) == nil {
				t.Errorf("%s's schema accepts an unknown key", ch.Chart)
			}
			n := 0
			for _, p := range plans {
				f, ok := p.File(ch.Values)
				if !ok {
					continue
				}
				n++
				values, err := sigsyaml.YAMLToJSON(f.Data)
				if err != nil {
					t.Fatal(err)
				}
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(values))
				if err != nil {
					t.Fatal(err)
				}
				if err := schema.Validate(v); err != nil {
					t.Errorf("%s: %s does not match the schema of chart %s (%s@%s):\n%v", p.Config, ch.Values, ch.Chart, cs.Module, cs.Version, err)
				}
			}
			if n == 0 {
				t.Errorf("no corpus plan renders %s", ch.Values)
			}
		}
	}
	if checked == 0 {
		t.Error("no chart of the catalog ships a values schema: the test checked nothing")
	}
}
