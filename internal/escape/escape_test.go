package escape

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// readGcfg reads the value of a `name = value` line as gcfg does: after
// leading blanks, quoted parts with the escapes \\ \" \n \t \b, unquoted
// parts up to a ; or # comment, trailing unquoted blanks trimmed.
func readGcfg(line string) (string, error) {
	_, v, ok := strings.Cut(line, "=")
	if !ok {
		return "", errors.New("no =")
	}
	v = strings.TrimLeft(v, " \t")
	var out []rune
	quoted, trim := false, 0
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		i += n
		switch {
		case r == '\\':
			if i >= len(v) {
				return "", errors.New("escape at end")
			}
			e, n := utf8.DecodeRuneInString(v[i:])
			i += n
			u, ok := map[rune]rune{'\\': '\\', '"': '"', 'n': '\n', 't': '\t', 'b': '\b'}[e]
			if !ok {
				return "", errors.New("unknown escape")
			}
			out, trim = append(out, u), 0
		case r == '"':
			quoted, trim = !quoted, 0
		case !quoted && (r == ';' || r == '#'):
			return string(out[:len(out)-trim]), nil
		case r == '\n':
			return "", errors.New("line break")
		default:
			out = append(out, r)
			if !quoted && (r == ' ' || r == '\t') {
				trim++
			} else {
				trim = 0
			}
		}
	}
	if quoted {
		return "", errors.New("unterminated string")
	}
	return string(out[:len(out)-trim]), nil
}

// oneLine fails when out holds anything but raw-safe characters.
func oneLine(t *testing.T, what string, out []byte) {
	t.Helper()
	for _, r := range string(out) {
		if !yamlenc.RawOK(r) {
			t.Fatalf("%s wrote raw %U: %q", what, r, out)
		}
	}
}

var corpus = []string{"", "a", "a b", " lead", "trail ", "x\ny = z", "[section]", "\"q\"", `back\slash`, "a;b", "a#b", "tab\tx",
	"\b", "\x00", "\r", "\u0085", "\u2028", "\u2029", "\ufeff", "\uffff", "ünï", "true", "---", ": ", " #", "*anchor"}

func FuzzEscapers(f *testing.F) {
	for _, s := range corpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("config values come from UTF-8 YAML")
		}
		if out, err := GcfgValue(nil, s); err == nil {
			oneLine(t, "GcfgValue", out)
			if got, err := readGcfg("k = " + string(out) + " ; comment"); err != nil || got != s {
				t.Fatalf("GcfgValue(%q) = %s, read back %q (%v)", s, out, got, err)
			}
		} else if !strings.ContainsFunc(s, func(r rune) bool { return !yamlenc.RawOK(r) && !strings.ContainsRune("\n\t\b", r) }) {
			t.Fatalf("GcfgValue refused %q, which gcfg can hold: %v", s, err)
		}
		if out, err := GcfgSubsection(nil, s); err == nil {
			oneLine(t, "GcfgSubsection", out)
			if u, err := strconv.Unquote(string(out)); err != nil || u != s {
				t.Fatalf("GcfgSubsection(%q) = %s", s, out)
			}
		}
		if out, err := INIValue(nil, s); err == nil {
			oneLine(t, "INIValue", out)
			if string(out) != s || strings.TrimSpace(s) != s || strings.ContainsAny(s, ";#") {
				t.Fatalf("INIValue(%q) = %q", s, out)
			}
		}
		out := Comment([]byte("# "), s)
		oneLine(t, "Comment", out)
		var v any
		if err := yaml.Unmarshal(append(out, "\nk: v\n"...), &v); err != nil {
			t.Fatalf("Comment(%q) breaks the document: %v", s, err)
		}
		doc := Map([]byte("m:"), map[string]string{s + "k": s}, 2)
		var m map[string]map[string]string
		if err := yaml.Unmarshal(doc, &m); err != nil || len(m["m"]) != 1 || m["m"][s+"k"] != s {
			t.Fatalf("Map round trip of %q: %v %v\n%s", s, m, err, doc)
		}
		doc = Seq([]byte("l:"), []string{s, s}, 2)
		var l map[string][]string
		if err := yaml.Unmarshal(doc, &l); err != nil || len(l["l"]) != 2 || l["l"][1] != s {
			t.Fatalf("Seq round trip of %q: %v %v\n%s", s, l, err, doc)
		}
	})
}

func TestRefusals(t *testing.T) {
	for _, s := range []string{"\x00", "a\rb", "\u2028"} {
		if _, err := GcfgValue(nil, s); err == nil {
			t.Errorf("GcfgValue(%q): gcfg has no escape for it, want a refusal", s)
		}
	}
	for _, s := range []string{"a\nb", " x", "a;b", "\x00"} {
		if _, err := INIValue(nil, s); err == nil {
			t.Errorf("INIValue(%q): want a refusal", s)
		}
	}
	err := Field("opencenter.services.x.y", &Refusal{Context: "a gcfg value", What: "U+0000"})
	if err.Error() != "opencenter.services.x.y: a gcfg value cannot hold U+0000" {
		t.Errorf("FieldError = %q", err)
	}
}

func TestFloat(t *testing.T) {
	for _, f := range []float64{0, 1, 0.25, 1e21, -3.5, 1e-7} {
		out := Float([]byte("v: "), f)
		var n yaml.Node
		if err := yaml.Unmarshal(out, &n); err != nil {
			t.Fatal(err)
		}
		if v := n.Content[0].Content[1]; v.ShortTag() != "!!float" {
			t.Errorf("Float(%v) = %q reads as %s", f, out, v.ShortTag())
		}
	}
}
