package plan

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/toolcheck"
)

// TestHelmValuesMatchChartSchemas: the values a template writes for a chart
// that ships a values.schema.json validate against it, as Helm validates
// them on install (the base's values are merged in then; the schema refuses
// unknown keys and values of the wrong type wherever they come from).
func TestHelmValuesMatchChartSchemas(t *testing.T) {
	plans := map[string]*Plan{}
	for _, p := range corpusPlans(t) {
		plans[p.Config] = p
	}
	for _, cs := range toolcheck.ChartSchemas {
		text, err := cs.Read()
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
		// The schema refuses what Helm would: an unknown key, a value of the wrong type.
		for _, bad := range []string{`{"opencenter-unknown-key": 1}`, `{"crds": {"enabled": "yes"}}`} {
			v, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
			if schema.Validate(v) == nil {
				t.Errorf("%s's schema accepts %s", cs.Unit, bad)
			}
		}
		n := 0
		for overlay, p := range plans {
			f, ok := p.File("services/" + cs.Unit + "/helm-values/override-values.yaml")
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
				t.Errorf("%s: %s's values do not match the chart's schema (%s@%s):\n%v", overlay, cs.Unit, cs.Module, cs.Version, err)
			}
		}
		if n == 0 {
			t.Errorf("no fixture cluster renders %s's values", cs.Unit)
		}
	}
}
