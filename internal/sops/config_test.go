package sops

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig([]byte(`creation_rules:
  - path_regex: a
    age: " age1one , age1two,"
    encrypted_regex: ^secrets$
  - path_regex: b
    age: [age1three, age1four]
    mac_only_encrypted: true
  - pgp: ABCDEF
    key_groups: [{age: [age1five]}]
    unencrypted_suffix: _plain
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []CreationRule{
		{PathRegex: "a", Age: []string{"age1one", "age1two"}, Rules: Rules{EncryptedRegex: "^secrets$"}},
		{PathRegex: "b", Age: []string{"age1three", "age1four"}, Rules: Rules{MACOnlyEncrypted: true}},
		{Rules: Rules{UnencryptedSuffix: "_plain"}, Unsupported: []string{"key_groups", "pgp"}},
	}
	if !c.HasCreationRules || !reflect.DeepEqual(c.CreationRules, want) {
		t.Errorf("rules = %+v\nwant %+v", c.CreationRules, want)
	}

	none, err := ParseConfig([]byte("destination_rules: []\n"))
	if err != nil || none.HasCreationRules {
		t.Errorf("a file without creation_rules: %+v, %v", none, err)
	}
	for _, bad := range []string{"creation_rules: [{age: 3}]", "creation_rules: [{age: [3]}]", "creation_rules: [{path_regex: [x]}]", "creation_rules: {"} {
		if _, err := ParseConfig([]byte(bad)); err == nil {
			t.Errorf("ParseConfig(%q) accepted it", bad)
		}
	}
}

// TestFindRule pins sops's matching: relative to the .sops.yaml directory,
// unanchored, first match wins, an empty path_regex matches everything, and a
// file outside the directory is matched by its absolute path.
func TestFindRule(t *testing.T) {
	root := t.TempDir()
	c, err := ParseConfig([]byte(`creation_rules:
  - path_regex: ^clusters/prod/
    age: age1prod
  - path_regex: dev
    age: age1dev
  - path_regex: \.enc\.yaml$
    age: age1enc
  - age: age1rest
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"clusters/prod/app.yaml":          "age1prod",
		"clusters/prod/dev/app.yaml":      "age1prod", // first match wins
		"clusters/dev/app.yaml":           "age1dev",  // unanchored
		"clusters/staging/devices.yaml":   "age1dev",  // anywhere in the path
		"clusters/staging/app.enc.yaml":   "age1enc",
		"clusters/staging/app.yaml":       "age1rest",
		"./clusters/prod/../prod/x.yaml":  "age1prod", // the path is cleaned
		"other/clusters/prod/app.yaml":    "age1rest", // ^ anchors at the .sops.yaml directory
		"../outside/clusters/prod/x.yaml": "age1rest", // absolute path: ^clusters misses
	}
	for file, want := range cases {
		// Not filepath.Join: FindRule must clean the path itself.
		r, err := c.FindRule(root, root+"/"+file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if r.Age[0] != want {
			t.Errorf("%s: rule for %s, want %s", file, r.Age[0], want)
		}
	}

	// A relative file path is relative to the working directory, as in sops.
	t.Chdir(filepath.Join(root))
	if r, err := c.FindRule(root, "clusters/prod/app.yaml"); err != nil || r.Age[0] != "age1prod" {
		t.Errorf("relative path: %+v, %v", r, err)
	}

	strict, _ := ParseConfig([]byte("creation_rules: [{path_regex: ^only/, age: age1x}]"))
	if _, err := strict.FindRule(root, filepath.Join(root, "else/x.yaml")); !errors.Is(err, ErrNoRule) {
		t.Errorf("no matching rule: %v", err)
	}
	empty, _ := ParseConfig([]byte("stores: {}"))
	if _, err := empty.FindRule(root, filepath.Join(root, "x.yaml")); !errors.Is(err, ErrNoRule) {
		t.Errorf("no creation_rules: %v", err)
	}
	two, _ := ParseConfig([]byte("creation_rules: [{age: age1x, encrypted_regex: a, unencrypted_regex: b}]"))
	if _, err := two.FindRule(root, "x.yaml"); err == nil || !strings.Contains(err.Error(), "only one of") {
		t.Errorf("two selectors: %v", err)
	}
	badRegex, _ := ParseConfig([]byte("creation_rules: [{path_regex: '(', age: age1x}]"))
	if _, err := badRegex.FindRule(root, "x.yaml"); err == nil {
		t.Error("an invalid path_regex was accepted")
	}
}

func TestFindConfigFile(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ConfigFileName), []byte("creation_rules: []\n"))
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindConfigFile(deep)
	if err != nil || got != filepath.Join(root, ConfigFileName) {
		t.Errorf("FindConfigFile = %q, %v", got, err)
	}
	// .sops.yml is not the config file, for sops either.
	writeFile(t, filepath.Join(root, "a", ".sops.yml"), []byte("creation_rules: []\n"))
	if got, _ := FindConfigFile(deep); got != filepath.Join(root, ConfigFileName) {
		t.Errorf("FindConfigFile took %q", got)
	}
	if _, err := FindConfigFile(t.TempDir()); !errors.Is(err, ErrNoConfig) {
		t.Errorf("no config: %v", err)
	}
}

// TestRulesMatchSops: for files in subdirectories and sops run from several
// working directories, sops picks the rule FindConfigFile and FindRule pick.
func TestRulesMatchSops(t *testing.T) {
	cli := realSops(t)
	prod, dev, rest, sub := newKey(t), newKey(t), newKey(t), newKey(t)
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ConfigFileName), []byte(`creation_rules:
  - path_regex: ^clusters/prod/.*\.yaml$
    age: `+prod.recipient+`
    encrypted_regex: ^secrets$
  - path_regex: dev
    age: [`+dev.recipient+`]
  - age: `+rest.recipient+`
`))
	writeFile(t, filepath.Join(root, "clusters/prod/sub", ConfigFileName), []byte("creation_rules: [{age: "+sub.recipient+"}]\n"))
	files := []string{"clusters/prod/app.yaml", "clusters/dev/app.yaml", "other/app.yaml", "clusters/prod/sub/app.yaml", "clusters/prod/sub/devices.yaml"}
	for _, f := range files {
		writeFile(t, filepath.Join(root, f), []byte("secrets:\n  a: b\nplain: c\n"))
	}
	for _, cwd := range []string{".", "clusters", "clusters/prod/sub", "other"} {
		dir := filepath.Join(root, cwd)
		cfg, err := FindConfigFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			abs := filepath.Join(root, f)
			rel, err := filepath.Rel(dir, abs)
			if err != nil {
				t.Fatal(err)
			}
			want, err := FindRule(filepath.Dir(cfg), abs)
			if err != nil {
				t.Fatal(err)
			}
			out := cli.mustRun(dir, nil, "--encrypt", rel)
			got, err := ReadMetadata(out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Recipients, want.Age) || got.EncryptedRegex != want.EncryptedRegex {
				t.Errorf("from %s, %s: sops used %v %q, FindRule gave %v %q", cwd, rel, got.Recipients, got.EncryptedRegex, want.Age, want.EncryptedRegex)
			}
		}
	}

	// A .sops.yaml whose rules all miss stops sops even with --age.
	strict := t.TempDir()
	writeFile(t, filepath.Join(strict, ConfigFileName), []byte("creation_rules: [{path_regex: ^nothing$, age: "+rest.recipient+"}]\n"))
	writeFile(t, filepath.Join(strict, "x.yaml"), []byte("a: b\n"))
	if _, err := cli.run(strict, nil, "--encrypt", "--age", rest.recipient, "x.yaml"); err == nil {
		t.Error("sops encrypted a file no creation rule matches")
	}
	if _, err := FindRule(strict, filepath.Join(strict, "x.yaml")); !errors.Is(err, ErrNoRule) {
		t.Errorf("FindRule: %v", err)
	}
}
