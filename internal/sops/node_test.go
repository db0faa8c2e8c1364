package sops

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"go.yaml.in/yaml/v3"
)

// parseRoot parses one document and returns its root mapping, as
// yamlfile.Parse does for config files.
func parseRoot(t testing.TB, data []byte) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0]
	}
	return &doc
}

// checkNodeAgrees decrypts enc with Decrypt and with DecryptNode and fails
// unless both fail alike or give the same document: equal decoded, and each
// scalar with the Tag (and, where it was encrypted, the Value and Style) that
// parsing Decrypt's output gives it.
func checkNodeAgrees(t testing.TB, enc []byte, ids []age.Identity) {
	t.Helper()
	plain, meta, err := Decrypt(enc, ids)
	root := parseRoot(t, enc)
	nmeta, nerr := DecryptNode(root, ids)
	if (err == nil) != (nerr == nil) {
		t.Fatalf("Decrypt: %v\nDecryptNode: %v", err, nerr)
	}
	if err != nil {
		for _, sentinel := range []error{ErrNotEncrypted, ErrNoMatchingIdentity, ErrTamperedValue, ErrMACMismatch} {
			if errors.Is(err, sentinel) != errors.Is(nerr, sentinel) {
				t.Errorf("Decrypt: %v\nDecryptNode: %v", err, nerr)
			}
		}
		return
	}
	if !equalMetadata(meta, nmeta) {
		t.Errorf("metadata: Decrypt %+v, DecryptNode %+v", meta, nmeta)
	}
	var want, got any
	if err := yaml.Unmarshal(plain, &want); err != nil {
		t.Fatal(err)
	}
	if err := root.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if !equalYAML(got, want) {
		out, _ := yaml.Marshal(root)
		t.Fatalf("documents differ:\n--- Decrypt\n%s--- DecryptNode\n%s", plain, out)
	}
	compareNodes(t, "", root, parseRoot(t, plain), parseRoot(t, enc))
}

// compareNodes compares the node tree DecryptNode left (got) with the parse of
// Decrypt's output (want); orig is the encrypted file's node, nil where it
// has none. A plaintext scalar keeps its own form, so only its tag must
// match; a decrypted one must match in Value and Style too.
func compareNodes(t testing.TB, path string, got, want, orig *yaml.Node) {
	t.Helper()
	if got.Kind != want.Kind || len(got.Content) != len(want.Content) {
		t.Fatalf("%s: kind %v with %d children, want %v with %d", path, got.Kind, len(got.Content), want.Kind, len(want.Content))
	}
	switch got.Kind {
	case yaml.ScalarNode:
		encrypted := orig == nil || strings.HasPrefix(orig.Value, encPrefix) || orig.Value == "" && orig.Tag == "!!str"
		if got.Tag != want.Tag || encrypted && (got.Value != want.Value || got.Style != want.Style) {
			t.Errorf("%s: %s %q style %v, want %s %q style %v", path, got.Tag, got.Value, got.Style, want.Tag, want.Value, want.Style)
		}
	case yaml.MappingNode:
		for i := 0; i < len(got.Content); i += 2 {
			k := got.Content[i].Value
			if k != want.Content[i].Value {
				t.Fatalf("%s: key %q, want %q", path, k, want.Content[i].Value)
			}
			var o *yaml.Node
			if orig != nil && orig.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(orig.Content); j += 2 {
					if orig.Content[j].Value == k {
						o = orig.Content[j+1]
					}
				}
			}
			compareNodes(t, path+"."+k, got.Content[i+1], want.Content[i+1], o)
		}
	case yaml.SequenceNode:
		var items []*yaml.Node
		if orig != nil {
			for _, item := range orig.Content {
				// sops 3.13.3 writes a comment in a list as an item.
				if !strings.HasSuffix(item.Value, ",type:comment]") {
					items = append(items, item)
				}
			}
		}
		for i := range got.Content {
			var o *yaml.Node
			if len(items) == len(got.Content) {
				o = items[i]
			}
			compareNodes(t, path+"[]", got.Content[i], want.Content[i], o)
		}
	}
}

// TestDecryptNodeAgrees: over every document and rule set, encrypted by
// Encrypt and by the sops CLI, DecryptNode gives what Decrypt gives.
func TestDecryptNodeAgrees(t *testing.T) {
	key := newKey(t)
	cli := maybeSops(t)
	for docName, doc := range documents {
		for ruleName, rc := range ruleCases {
			t.Run("ours/"+docName+"/"+ruleName, func(t *testing.T) {
				enc, err := Encrypt([]byte(doc), EncryptOptions{Recipients: []string{key.recipient}, Rules: rc.rules})
				if err != nil {
					t.Fatal(err)
				}
				checkNodeAgrees(t, enc, key.ids())
			})
			if cli == nil {
				continue
			}
			t.Run("sops/"+docName+"/"+ruleName, func(t *testing.T) {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "plain.yaml"), []byte(doc))
				args := append([]string{"--encrypt", "--age", key.recipient}, rc.flags...)
				checkNodeAgrees(t, cli.mustRun(dir, nil, append(args, "plain.yaml")...), key.ids())
			})
		}
	}
	if cli == nil {
		t.Log("the sops CLI is not built: only Encrypt's files were checked")
		return
	}
	// sops writes comments in an encrypted list as list items.
	t.Run("sops/list comments", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "plain.yaml"), []byte("list:\n  - one\n  # about two\n  - two\n  # last\nother:\n  - x\n  # only a comment after x\nmore:\n  # c1\n  # c2\n  - y\n"))
		enc := cli.mustRun(dir, nil, "--encrypt", "--age", key.recipient, "plain.yaml")
		if !bytes.Contains(enc, []byte(",type:comment]\n")) {
			t.Fatalf("sops no longer writes list comments as items:\n%s", enc)
		}
		checkNodeAgrees(t, enc, key.ids())
		root := parseRoot(t, enc)
		if _, err := DecryptNode(root, key.ids()); err != nil {
			t.Fatal(err)
		}
		out, _ := yaml.Marshal(root)
		for _, c := range []string{`# about two\s+- two`, `# last`, `# only a comment after x`, `# c1\s+# c2\s+- "y"`} {
			if !regexp.MustCompile(c).Match(out) {
				t.Errorf("the comment %s is lost or moved:\n%s", c, out)
			}
		}
	})
}

// TestDecryptNodeRoundTripSeeds: the values FuzzRoundTrip starts from, and
// values of each type, decrypt through both paths alike.
func TestDecryptNodeRoundTripSeeds(t *testing.T) {
	key := newKey(t)
	values := append(append([]string{}, roundTripSeeds...),
		"y", "n", "yes", "off", "~", "1e3", "0x10", "012", "1_000", "2001-01-01", "1:20", ".5", "-.inf",
		" lead", "trail ", "two\n\nblank lines\n\n\n", "\ttab", "a: b", "#x", "x #y", "---", "'", "\"", "é", "\u2028", "\xff\xfe",
		strings.Repeat("long ", 40))
	for _, v := range values {
		plain, err := yaml.Marshal(map[string]any{"str": v, "int": 7, "neg": -3, "float": 2.5, "whole": 2.0, "bool": false, "null": nil, "time": time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		enc, err := Encrypt(plain, EncryptOptions{Recipients: []string{key.recipient}})
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		checkNodeAgrees(t, enc, key.ids())
	}
}

// TestDecryptNodeTampering: DecryptNode refuses what Decrypt refuses, with the
// same error, and then leaves the tree as it was.
func TestDecryptNodeTampering(t *testing.T) {
	key, other := newKey(t), newKey(t)
	for _, c := range tamperingCases(t, key, other) {
		t.Run(c.name, func(t *testing.T) {
			root, pristine := parseRoot(t, c.file), parseRoot(t, c.file)
			_, err := DecryptNode(root, c.ids.ids())
			if !errors.Is(err, c.want) {
				t.Fatalf("error = %v, want %v", err, c.want)
			}
			checkNodeAgrees(t, c.file, c.ids.ids())
			if err != nil && !reflect.DeepEqual(root, pristine) {
				t.Error("the tree changed although decryption failed")
			}
		})
	}
}

func TestDecryptNodeRefuses(t *testing.T) {
	key := newKey(t)
	enc := encryptConfig(t, key, Rules{EncryptedRegex: SecretsRegex, MACOnlyEncrypted: true})
	// mac_only_encrypted lets the plaintext part change; these changes are
	// refused as YAML sops cannot read.
	cases := []struct{ name, edit, want string }{
		{"duplicate key", "region: eu-west-1\nregion: x\n", "already defined"},
		{"duplicate key in a big mapping", "wide:\n" + strings.Repeat("    k: 1\n", 40), "already defined"},
		{"integer key", "1: x\n", "only string keys"},
		{"integer beyond int64", "big: 18446744073709551615\n", "not supported"},
		{"merge of a scalar", "m:\n    <<: x\n", "map merge"},
		{"recursive alias", "r: &r\n    - *r\n", "recursive alias"},
		{"alias bomb", bomb(20), "aliases expand to more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := bytes.Replace(enc, []byte("region: eu-west-1\n"), []byte(c.edit), 1)
			_, err := DecryptNode(parseRoot(t, file), key.ids())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want one containing %q", err, c.want)
			}
			if c.name == "recursive alias" || c.name == "alias bomb" {
				return // Decrypt has no bound on aliases
			}
			if _, _, err := Decrypt(file, key.ids()); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Decrypt error = %v, want one containing %q", err, c.want)
			}
		})
	}
	for name, doc := range map[string]string{"sequence": "- a\n", "scalar": "a\n"} {
		if _, err := DecryptNode(parseRoot(t, []byte(doc)), key.ids()); err == nil || errors.Is(err, ErrNotEncrypted) {
			t.Errorf("%s root: %v", name, err)
		}
	}
	if _, err := DecryptNode(parseRoot(t, []byte("a: b\n")), key.ids()); !errors.Is(err, ErrNotEncrypted) {
		t.Errorf("plain file: %v", err)
	}
	if _, err := DecryptNode(parseRoot(t, enc), nil); !errors.Is(err, ErrNoMatchingIdentity) {
		t.Errorf("no identities: %v", err)
	}
	aliased := bytes.Replace(enc, []byte("sops:\n"), []byte("sops:\n    x: &x [*x]\n"), 1)
	if _, err := ReadNodeMetadata(parseRoot(t, aliased)); err == nil || !strings.Contains(err.Error(), "alias") {
		t.Errorf("alias in the metadata: %v", err)
	}
	meta, err := ReadNodeMetadata(parseRoot(t, enc))
	if err != nil || meta.Recipients[0] != key.recipient || meta.DataKey != nil || !meta.MACOnlyEncrypted {
		t.Errorf("ReadNodeMetadata = %+v, %v", meta, err)
	}
}

// bomb is a mapping entry whose aliases expand to 2^levels lists.
func bomb(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x]\n")
	for i := 1; i <= levels; i++ {
		p := "*l" + string(rune('a'+i-1))
		if i == 1 {
			p = "*l0"
		}
		b.WriteString("l" + string(rune('a'+i)) + ": &l" + string(rune('a'+i)) + " [" + p + ", " + p + "]\n")
	}
	return b.String()
}

// TestDecryptNodeAliases: aliases, which sops expands and so never writes,
// may appear in the plaintext part of a mac_only_encrypted file. They are
// decrypted per place as Decrypt does: an alias does not carry a decrypted
// value to a plaintext place, nor a plaintext one into an encrypted place.
func TestDecryptNodeAliases(t *testing.T) {
	key := newKey(t)
	enc := encryptConfig(t, key, Rules{EncryptedRegex: SecretsRegex, MACOnlyEncrypted: true})
	edits := map[string]struct {
		old, new string
		want     error
	}{
		"plaintext anchor": {"cluster: prod-eu\n", "cluster: &c prod-eu\nbase: &b {x: 1}\ncopy: *b\nname: *c\nmerged:\n    <<: *b\n    y: 2\n", nil},
		"alias of secrets": {"secrets:\n", "secrets: &s\n", nil},
		"alias in secrets": {"cluster: prod-eu\n", "cluster: &c prod-eu\nbase: &b {x: 1}\n", nil},
	}
	for name, e := range edits {
		t.Run(name, func(t *testing.T) {
			file := bytes.Replace(enc, []byte(e.old), []byte(e.new), 1)
			if name == "alias of secrets" {
				file = bytes.Replace(file, []byte("sops:\n"), []byte("leak: *s\nsops:\n"), 1)
			}
			if name == "alias in secrets" {
				file = bytes.Replace(file, []byte("    map:\n"), []byte("    copy: *b\n    map:\n"), 1)
			}
			checkNodeAgrees(t, file, key.ids())
		})
	}
	t.Run("leak", func(t *testing.T) {
		file := bytes.Replace(enc, []byte("secrets:\n"), []byte("secrets: &s\n"), 1)
		file = bytes.Replace(file, []byte("sops:\n"), []byte("leak: *s\nsops:\n"), 1)
		root := parseRoot(t, file)
		if _, err := DecryptNode(root, key.ids()); err != nil {
			t.Fatal(err)
		}
		var doc struct{ Leak, Secrets map[string]any }
		if err := root.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		if doc.Secrets["token"] != "abc.def" || !strings.HasPrefix(doc.Leak["token"].(string), encPrefix) {
			t.Errorf("secrets.token = %v, leak.token = %v", doc.Secrets["token"], doc.Leak["token"])
		}
	})
	t.Run("plaintext into secrets", func(t *testing.T) {
		file := bytes.Replace(enc, []byte("cluster: prod-eu\n"), []byte("cluster: &c prod-eu\n"), 1)
		file = bytes.Replace(file, []byte("    map:\n"), []byte("    copy: *c\n    map:\n"), 1)
		_, err := DecryptNode(parseRoot(t, file), key.ids())
		if !errors.Is(err, ErrTamperedValue) || !strings.Contains(err.Error(), "secrets.copy") {
			t.Errorf("error = %v, want ErrTamperedValue at secrets.copy", err)
		}
	})
}

// TestDecryptNodeComments: encrypted comments are decrypted in place.
func TestDecryptNodeComments(t *testing.T) {
	key := newKey(t)
	enc, err := Encrypt([]byte(documents["comments"]), EncryptOptions{Recipients: []string{key.recipient}})
	if err != nil {
		t.Fatal(err)
	}
	root := parseRoot(t, enc)
	if _, err := DecryptNode(root, key.ids()); err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("ENC[")) || bytes.Contains(out, []byte("sops")) {
		t.Errorf("left encrypted or metadata:\n%s", out)
	}
	for _, c := range []string{"# The head comment.", "# inline", "# Between entries.", "# Inside secrets.", "# The foot comment."} {
		if !bytes.Contains(out, []byte(c)) {
			t.Errorf("the comment %q is lost:\n%s", c, out)
		}
	}
}

// scalarFormCases are strings whose YAML form is easy to get wrong.
var scalarFormCases = []string{
	"", "a", "abc", "ABC-def_1.2/3+4=", "v1.2.3", "e10", "x1e3", "y", "Y", "yes", "n", "No", "on", "OFF", "true", "False",
	"null", "Null", "NULL", "nulls", "trueish", "~", "1", "1e3", "0x10", "012", ".5", ".inf", "1:20", "2001-01-01",
	"a b", "a: b", "a:b", "- a", "-a", "a-", "#a", "a #b", "a#b", "'a'", "\"a\"", "a\n", "a\nb", " a", "a ", "é", "\t",
	"\x00", "\xff", "\t\n", "---", "...", "=", "+", "a/b", "<<", "!a", "&a", "*a", "%a", "@a", "`a", "?a", "|a", ">a", "[a]", "{a}", "a,b",
	"a b", "a  b", "a b ", "a b:", "a b: c", "a #b", "a# b", "$x y", "/etc/x y", "$", "/", "a 'b'", "a \"b\"", "a\tb", "Yes please", "no",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE flux@k8s-uat and more words past eighty columns",
	"a:", "a::", "a:b:", "a::b", "a[", "a]", "a,", "a,b]", "a:[b]", "a=:", "ENC[AES256_GCM,data:q83v+A==,iv:a/b+c=,tag:Zm9v,type:str]",
	".htpasswd", ".", "..", "....a", "..a", ".a:", ".a: b", ".a #b", ".a,b", ".Inf", ".NaN", ".nan", "-.inf", ".5e3", "._1", ".1_0", ".e1", ".y", ".a'",
	"a\nb\n", "a:{SHA}qX4tq0yvQ0XSAU8Me62Uzf3gy4c=\nb:{SHA}5srpJrF8Uqwnq5YPwulEou0tIas=\n", "a\n\n", "\na\n", " a\nb\n", "a \nb\n", "a\n b\n",
	"#a\nb\n", "- a\nb\n", "a\tb\nc\n", "é\nb\n", "a\r\nb\n", "true\n", "---\na\n", "a\n...\n",
}

// TestScalarForm: the shortcuts of scalarForm give what encoding the value
// with yaml.v3 gives.
func TestScalarForm(t *testing.T) {
	for _, s := range scalarFormCases {
		checkScalarForm(t, s)
	}
	for _, v := range []any{true, false, 0, -1, 42, 1 << 62} {
		checkScalarForm(t, v)
	}
}

func FuzzScalarForm(f *testing.F) {
	for _, s := range scalarFormCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkScalarForm(t, s) })
}

func checkScalarForm(t *testing.T, v any) {
	t.Helper()
	value, tag, style, err := scalarForm(v)
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		// yaml.v3 cannot write it so that it reads it back: double quotes.
		s, ok := v.(string)
		if !ok {
			t.Fatal(err)
		}
		n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: s}
		out, err := yaml.Marshal(&n)
		var back string
		if err != nil || yaml.Unmarshal(out, &back) != nil || back != s {
			t.Fatalf("%q double-quoted: %q does not read back (%v)", s, out, err)
		}
	}
	if value != n.Value || tag != n.Tag || style != n.Style {
		t.Errorf("scalarForm(%#v) = %q %s %v, yaml.v3 gives %q %s %v", v, value, tag, style, n.Value, n.Tag, n.Style)
	}
	forms := []any{v}
	if s, ok := v.(string); ok {
		forms = append(forms, metaString(s), metaString(s)) // the second from the cache
	}
	for _, v := range forms {
		fast, err := scalarNode(v)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*fast, n) {
			t.Errorf("scalarNode(%#v) = %+v, yaml.v3 gives %+v", v, *fast, n)
		}
	}
}
