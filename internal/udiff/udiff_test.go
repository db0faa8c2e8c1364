package udiff

import "testing"

func TestUnified(t *testing.T) {
	a := []byte("a\nb\nc\nd\ne\nf\ng\nh\ni\n")
	b := []byte("a\nb\nc\nD\ne\nf\ng\nh\ni\nj\n")
	want := "--- x\n+++ y\n@@ -1,9 +1,10 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n i\n+j\n"
	if got := Unified("x", "y", a, b); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Unified("x", "y", a, a); got != "" {
		t.Errorf("equal inputs: got %q", got)
	}
	if got := Unified("x", "y", nil, []byte("new\n")); got != "--- x\n+++ y\n@@ -0,0 +1,1 @@\n+new\n" {
		t.Errorf("create: got %q", got)
	}
}
