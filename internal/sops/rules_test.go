package sops

import (
	"regexp"
	"testing"
)

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

// TestExactKeys: a selector read as a list of keys matches exactly the keys
// its regular expression matches, and the list is used for the common
// forms.
func TestExactKeys(t *testing.T) {
	exprs := []string{
		"^secrets$", "^(data|stringData)$", "^(?:data|stringData)$", "^(password|token|key)$", "^data$|^x$",
		"^(a|b)$", "^(data|database)$", "^(?i)secrets$", "(?m)^secrets$", "^secrets", "secrets$", "^se.rets$",
		"^(data|stringData)", "^$", "^(|x)$", `^a\.b$`, "^a\nb$", `^é$`, "^(data|stringData)$|^y$", "^(x)+$", "^a\uFFFDb$",
	}
	keys := []string{"", "secrets", "Secrets", "SECRETS", "secrets\n", "\nsecrets", "xsecrets", "secretsx", "data", "stringData",
		"stringdata", "database", "datab", "password", "token", "key", "keys", "a", "b", "ab", "x", "y", "a.b", "axb", "a\nb", "é",
		"serets", "sexrets", "secrets_unencrypted", "a\xffb", "a\uFFFDb"}
	literal := 0
	for _, expr := range exprs {
		m, err := Rules{EncryptedRegex: expr}.compileNew()
		if err != nil {
			t.Fatalf("%q: %v", expr, err)
		}
		re := regexp.MustCompile(expr)
		if m.keys != nil {
			literal++
		}
		for _, k := range keys {
			if got, want := m.selects(k), re.MatchString(k); got != want {
				t.Errorf("%q against %q: selects %v, the regexp %v (keys %q)", expr, k, got, want, m.keys)
			}
		}
	}
	for _, expr := range []string{"^secrets$", "^(data|stringData)$", "^(?:data|stringData)$", "^(password|token|key)$"} {
		if exactKeys(expr) == nil {
			t.Errorf("%q is not read as a list of keys", expr)
		}
	}
	t.Logf("%d of %d selectors read as keys", literal, len(exprs))
}

// TestPathPattern holds PathPatternOf to the regexp it compiles, over
// patterns that are a suffix test and patterns that only look like one.
func TestPathPattern(t *testing.T) {
	exprs := []string{`\.yaml$`, `\.yaml\z`, `[.]yaml$`, `\.yaml`, `(?i)\.yaml$`, `.*\.yaml$`, `secret\.yaml$|\.enc$`,
		`^a\.yaml$`, `\.ya?ml$`, `(?m)\.yaml$`, `$`, `x$`, `\.yaml$|`, `(\.yaml)$`, `\.yaml$$`}
	paths := []string{"", "a.yaml", "a.yaml\n", "a.YAML", "b.yml", "x/a.yaml/y", ".yaml", "a.yamlx", "secret.yaml", "a.enc", "x", "a\n.yaml"}
	for _, expr := range exprs {
		p, err := PathPatternOf(expr)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(expr)
		for _, s := range paths {
			if got, want := p.MatchString(s), re.MatchString(s); got != want {
				t.Errorf("%s on %q: %v, the regexp says %v", expr, s, got, want)
			}
		}
	}
	if p, _ := PathPatternOf(`\.yaml$`); !p.suffixOnly || p.suffix != ".yaml" {
		t.Errorf(`\.yaml$ is not matched as the suffix .yaml: %+v`, p)
	}
}
