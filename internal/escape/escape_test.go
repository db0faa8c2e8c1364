package escape

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"gopkg.in/gcfg.v1"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// readGcfg reads the value of variable k from a gcfg file holding the
// line "k = <value> ; comment", with gopkg.in/gcfg.v1, the parser
// Kubernetes' OpenStack cloud provider reads cloud.conf with.
func readGcfg(value string) (string, error) {
	var cfg struct{ S struct{ K string } }
	err := gcfg.ReadStringInto(&cfg, "[s]\nk = "+value+" ; comment\n")
	return cfg.S.K, err
}

// readGcfgSubsection reads the subsection name of the one section of a gcfg
// file whose header is `[s <name>]`, with gopkg.in/gcfg.v1.
func readGcfgSubsection(name string) (string, error) {
	var cfg struct {
		S map[string]*struct{ K string }
	}
	if err := gcfg.ReadStringInto(&cfg, "[s "+name+"]\nk = v\n"); err != nil {
		return "", err
	}
	for sub := range cfg.S {
		if len(cfg.S) == 1 {
			return sub, nil
		}
	}
	return "", fmt.Errorf("%d subsections", len(cfg.S))
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
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("config values come from UTF-8 YAML")
		}
		if out, err := GcfgValue(nil, s); err == nil {
			oneLine(t, "GcfgValue", out)
			if got, err := readGcfg(string(out)); err != nil || got != s {
				t.Fatalf("GcfgValue(%q) = %s, read back %q (%v)", s, out, got, err)
			}
		} else if !strings.ContainsFunc(s, func(r rune) bool { return !yamlenc.RawOK(r) && !strings.ContainsRune("\n\t", r) }) {
			t.Fatalf("GcfgValue refused %q, which gcfg can hold: %v", s, err)
		}
		if out, err := GcfgSubsection(nil, s); err == nil {
			oneLine(t, "GcfgSubsection", out)
			if got, err := readGcfgSubsection(string(out)); err != nil || got != s {
				t.Fatalf("GcfgSubsection(%q) = %s, read back %q (%v)", s, out, got, err)
			}
		}
		if out, err := INIValue(nil, s); err == nil {
			oneLine(t, "INIValue", out)
			if string(out) != s || strings.TrimSpace(s) != s || strings.Contains(s, " #") || strings.Contains(s, " ;") {
				t.Fatalf("INIValue(%q) = %q", s, out)
			}
			if got, err := readAWSCredentials(dir, string(out)); err != nil || got != s {
				t.Fatalf("INIValue(%q) = %q, which the AWS SDK reads as %q (%v)", s, out, got, err)
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
	for _, s := range []string{"\x00", "a\rb", "\u2028", "\b"} {
		if _, err := GcfgValue(nil, s); err == nil {
			t.Errorf("GcfgValue(%q): gcfg has no escape for it, want a refusal", s)
		}
	}
	if _, err := GcfgSubsection(nil, ""); err == nil {
		t.Errorf(`GcfgSubsection(""): gcfg refuses an empty name, want a refusal`)
	}
	for _, s := range []string{"a\nb", " x", "a ;b", "a #b", "\x00", `"a"`, "'", "\t"} {
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
