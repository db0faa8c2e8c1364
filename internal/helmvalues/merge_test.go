package helmvalues

import (
	"reflect"
	"testing"
)

func TestMerge(t *testing.T) {
	base := map[string]any{
		"config":   map[string]any{"enableGatewayAPI": true, "logging": map[string]any{"format": "text"}},
		"args":     []any{"-a", "-b"},
		"replicas": 3,
		"kept":     map[string]any{"x": 1},
	}
	over := map[string]any{
		"config":   map[string]any{"logging": map[string]any{"format": "json"}},
		"args":     []any{"-c"},
		"replicas": nil,
		"kept":     "now a string",
		"new":      map[string]any{"y": 2},
	}
	want := map[string]any{
		"config":   map[string]any{"enableGatewayAPI": true, "logging": map[string]any{"format": "json"}},
		"args":     []any{"-c"},
		"replicas": nil,
		"kept":     "now a string",
		"new":      map[string]any{"y": 2},
	}
	if got := Merge(base, over); !reflect.DeepEqual(got, want) {
		t.Errorf("Merge:\n got %v\nwant %v", got, want)
	}
	if f := base["config"].(map[string]any)["logging"].(map[string]any)["format"]; f != "text" {
		t.Errorf("Merge changed base: logging.format %v", f)
	}
}
