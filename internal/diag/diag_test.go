package diag

import (
	"errors"
	"testing"
)

func TestString(t *testing.T) {
	cases := []struct {
		d    Diag
		want string
	}{
		{Diag{File: "a.yaml", Line: 3, Col: 5, Path: "x.y", Msg: "bad"}, "a.yaml:3:5: x.y: bad"},
		{Diag{File: "a.yaml", Line: 3, Msg: "bad"}, "a.yaml:3:1: bad"},
		{Diag{File: "a.yaml", Msg: "missing"}, "a.yaml: missing"},
	}
	for _, c := range cases {
		if got := c.d.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"kyverno", "keycloak", "loki", "longhorn"}
	if got := Suggest("kyvern", keys); got != ` (did you mean "kyverno"?)` {
		t.Errorf("kyvern: %q", got)
	}
	if got := Suggest("postgres", keys); got != "" {
		t.Errorf("postgres: want no suggestion, got %q", got)
	}
}

func TestListSorted(t *testing.T) {
	l := List{{File: "b", Line: 1, Msg: "x"}, {File: "a", Line: 9, Msg: "y"}, {File: "a", Line: 2, Msg: "z"}}
	want := "a:2:1: z\na:9:1: y\nb:1:1: x"
	if got := l.Error(); got != want {
		t.Errorf("got %q", got)
	}
}

func TestAsList(t *testing.T) {
	if AsList("f.yaml", nil) != nil {
		t.Error("nil error: want no diagnostics")
	}
	l := List{{File: "f.yaml", Line: 3, Msg: "bad"}}
	if got := AsList("other.yaml", l.Err()); len(got) != 1 || got[0] != l[0] {
		t.Errorf("a List: got %v", got)
	}
	if got := AsList("f.yaml", errors.New("unreadable")); len(got) != 1 || got[0] != (Diag{File: "f.yaml", Msg: "unreadable"}) {
		t.Errorf("another error: got %#v", got)
	}
}
