package sops

import "testing"

// TestPattern: a rule's pattern is compiled once and shared, and a pattern
// that does not compile is an error every time (errors are not kept).
func TestPattern(t *testing.T) {
	a, err := Pattern(`^(data|stringData)$`)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Pattern(`^(data|stringData)$`); a != b {
		t.Error("the same pattern compiled twice")
	}
	if !a.MatchString("stringData") || a.MatchString("kind") {
		t.Error("the shared pattern does not match as compiled")
	}
	for range 2 {
		if _, err := Pattern(`^(data`); err == nil {
			t.Error("a pattern that does not compile gave no error")
		}
	}
}
