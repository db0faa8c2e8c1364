package tmpl

import (
	"bytes"
	"testing"
)

func exec(t *testing.T, text string, data any) string {
	t.Helper()
	tp, err := Parse("t", text)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tp.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPointersAreDereferenced(t *testing.T) {
	ratio, n, on := 0.25, 3, true
	data := struct {
		Ratio *float64
		N     *int
		On    *bool
		Nil   *int
		S     string
	}{&ratio, &n, &on, nil, ""}
	for text, want := range map[string]string{
		`{{ quote .Ratio }}`:                      `"0.25"`,
		`{{ with .Ratio }}{{ quote . }}{{ end }}`: `"0.25"`,
		`{{ quote .Nil }}`:                        `""`,
		`{{ default 5 .N }}`:                      `3`,
		`{{ default 5 .Nil }}`:                    `5`,
		`{{ default false .On }}`:                 `true`,
		`{{ default "x" .S }}`:                    `x`,
		`{{ indent 2 "a\nb" }}`:                   "  a\n  b",
		`{{ toYaml .N }}`:                         `3`,
	} {
		if got := exec(t, text, data); got != want {
			t.Errorf("%s = %q, want %q", text, got, want)
		}
	}
}

func TestMissingKeyIsAnError(t *testing.T) {
	tp, _ := Parse("t", `{{ .nope }}`)
	if err := tp.Execute(&bytes.Buffer{}, map[string]any{}); err == nil {
		t.Error("missingkey=error should fail on a missing map key")
	}
}
