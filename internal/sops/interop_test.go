package sops

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

// documents cover what opencenter encrypts (a Secret, a config with a secrets
// key) and every scalar type sops distinguishes.
var documents = map[string]string{
	"secret": `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: apps
type: Opaque
stringData:
  password: "hunter2"
  url: postgres://db:5432/app?sslmode=require
  empty: ""
  multiline: |
    line one
    line two
`,
	"config": `cluster: prod-eu
region: eu-west-1
nodes: 3
ha: true
secrets:
  token: abc.def
  port: 8443
  ratio: 0.75
  whole: 2.0
  enabled: false
  nothing:
  expires: 2030-01-02
  list:
    - a
    - 7
    - {nested: value, deeper: [1, 2.5, true]}
  map:
    child: {leaf: x}
unencrypted_note_unencrypted: visible
`,
	"scalars": `quoted_number: "123"
quoted_bool: "true"
hex: 0x1F
negative: -42
big: 9007199254740993
exp: 1e10
inf: .inf
nan: .nan
unicode: "héllo wörld ✓"
key with spaces: v
"quoted:key": v
anchors:
  base: &base {a: 1, b: [x, y]}
  copy: *base
  merged:
    <<: *base
    c: 3
long: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore"
tab: "a\tb"
folded: >
  folded text
  here
single: 'it''s'
empty_map: {}
empty_list: []
secrets: {}
`,
	"comment placement": `# head
a: 1 # inline a
b:
  # head of c
  c: 2
  d: [1, 2]
  # foot of b
# before e
e:
  - x
  - y
f: {}
# trailing one
# trailing two
`,
	"comments": `# The head comment.
name: demo # inline
# Between entries.
secrets:
  # Inside secrets.
  key: value
list:
  - one
  - two
# The foot comment.
`,
}

// ruleCases are the selector settings exercised against sops.
var ruleCases = map[string]struct {
	rules Rules
	flags []string
}{
	"default":         {},
	"encrypted_regex": {rules: Rules{EncryptedRegex: SecretsRegex}, flags: []string{"--encrypted-regex", SecretsRegex}},
	"unencrypted_regex": {
		rules: Rules{UnencryptedRegex: "^(name|cluster|kind)$"},
		flags: []string{"--unencrypted-regex", "^(name|cluster|kind)$"},
	},
	"encrypted_suffix": {rules: Rules{EncryptedSuffix: "ets"}, flags: []string{"--encrypted-suffix", "ets"}},
	"mac_only_encrypted": {
		rules: Rules{EncryptedRegex: SecretsRegex, MACOnlyEncrypted: true},
		flags: []string{"--encrypted-regex", SecretsRegex, "--mac-only-encrypted"},
	},
}

// TestEncryptMatchesSops: what Encrypt writes, sops decrypts (checking the
// MAC) to the same bytes as Decrypt, and it has exactly the layout of what
// sops itself writes for the same input.
func TestEncryptMatchesSops(t *testing.T) {
	cli := realSops(t)
	key := newKey(t)
	for docName, doc := range documents {
		for ruleName, rc := range ruleCases {
			t.Run(docName+"/"+ruleName, func(t *testing.T) {
				ours, err := Encrypt([]byte(doc), EncryptOptions{
					Recipients:   []string{key.recipient},
					Rules:        rc.rules,
					LastModified: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
				})
				if err != nil {
					t.Fatal(err)
				}
				byCLI, err := cli.decrypt(ours, key.file)
				if err != nil {
					t.Fatalf("sops cannot decrypt our file: %v\n%s", err, ours)
				}
				byUs, meta, err := Decrypt(ours, key.ids())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(byUs, byCLI) {
					t.Errorf("Decrypt and sops --decrypt differ:\n--- ours\n%s--- sops\n%s", byUs, byCLI)
				}
				if meta.Version != Version || meta.Recipients[0] != key.recipient {
					t.Errorf("metadata = %+v", meta)
				}

				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "plain.yaml"), []byte(doc))
				args := append([]string{"--encrypt", "--age", key.recipient}, rc.flags...)
				theirs := cli.mustRun(dir, nil, append(args, "plain.yaml")...)
				if shape(ours) != shape(theirs) {
					t.Errorf("layout differs from sops:\n--- ours\n%s--- sops\n%s", shape(ours), shape(theirs))
				}
			})
		}
	}
}

// TestDecryptSopsFiles: files sops encrypts, with recipients from --age, from
// SOPS_AGE_RECIPIENTS and from a .sops.yaml rule, decrypt to what sops prints.
func TestDecryptSopsFiles(t *testing.T) {
	cli := realSops(t)
	one, two := newKey(t), newKey(t)
	cases := map[string]struct {
		env, args []string
		config    string
		wantRegex string
	}{
		"age flag, two recipients": {args: []string{"--age", one.recipient + "," + two.recipient}},
		"SOPS_AGE_RECIPIENTS":      {env: []string{"SOPS_AGE_RECIPIENTS=" + one.recipient}},
		"creation rule": {
			config:    "creation_rules:\n  - path_regex: \\.yaml$\n    encrypted_regex: ^secrets$\n    age: >-\n      " + one.recipient + ",\n      " + two.recipient + "\n",
			wantRegex: SecretsRegex,
		},
	}
	for name, c := range cases {
		for docName, doc := range documents {
			t.Run(name+"/"+docName, func(t *testing.T) {
				dir := t.TempDir()
				if c.config != "" {
					writeFile(t, filepath.Join(dir, ConfigFileName), []byte(c.config))
				}
				writeFile(t, filepath.Join(dir, "plain.yaml"), []byte(doc))
				enc := cli.mustRun(dir, c.env, append(append([]string{"--encrypt"}, c.args...), "plain.yaml")...)
				writeFile(t, filepath.Join(dir, "enc.yaml"), enc)
				want := cli.mustRun(dir, []string{KeyFileEnv + "=" + one.file}, "--decrypt", "enc.yaml")
				got, meta, err := Decrypt(enc, one.ids())
				if err != nil {
					t.Fatalf("%v\n%s", err, enc)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("Decrypt and sops --decrypt differ:\n--- ours\n%s--- sops\n%s", got, want)
				}
				if meta.Version != Version || meta.EncryptedRegex != c.wantRegex || len(meta.DataKey) != DataKeySize {
					t.Errorf("metadata = %+v", meta)
				}
				if len(meta.Recipients) > 1 {
					// The second recipient's key opens the same data key.
					_, meta2, err := Decrypt(enc, two.ids())
					if err != nil || !bytes.Equal(meta2.DataKey, meta.DataKey) {
						t.Errorf("second recipient: %v", err)
					}
				}
			})
		}
	}
}

// TestHybridRecipient: post-quantum age keys (age1pq1...) work both ways.
func TestHybridRecipient(t *testing.T) {
	id, err := age.GenerateHybridIdentity()
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(t.TempDir(), "keys.txt")
	writeFile(t, keys, []byte(id.String()+"\n"))
	ids, err := parseIdentities(strings.NewReader(id.String()+"\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := Encrypt([]byte(documents["secret"]), EncryptOptions{Recipients: []string{id.Recipient().String()}})
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := Decrypt(enc, ids)
	if err != nil {
		t.Fatal(err)
	}
	cli := maybeSops(t)
	if cli == nil {
		return
	}
	byCLI, err := cli.decrypt(enc, keys)
	if err != nil {
		t.Fatalf("sops cannot decrypt for a hybrid recipient: %v", err)
	}
	if !bytes.Equal(plain, byCLI) {
		t.Errorf("Decrypt and sops --decrypt differ:\n%s\n%s", plain, byCLI)
	}
}

// TestMetadataHasNoRawLineSeparators: a selector holding characters some
// YAML readers take for line breaks (U+2028, U+2029, NEL) is written
// escaped in the sops: block, as the one YAML writer writes any string,
// and the file still decrypts, with ours and with the real sops, to the
// same selector.
func TestMetadataHasNoRawLineSeparators(t *testing.T) {
	key := newKey(t)
	for _, regex := range []string{"^(data|x\u2028y)$", "^(data|x\u2029y)$", "^(data|x\u0085y)$", "^(data|it's \"quoted\")$"} {
		out, err := Encrypt([]byte("data:\n    password: hunter2\nkind: Secret\n"), EncryptOptions{Recipients: []string{key.recipient}, Rules: Rules{EncryptedRegex: regex}})
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range []string{"\u2028", "\u2029", "\u0085"} {
			if strings.Contains(string(out), raw) {
				t.Errorf("%q: the file holds %q raw:\n%s", regex, raw, out)
			}
		}
		_, meta, err := Decrypt(out, key.ids())
		if err != nil || meta.EncryptedRegex != regex {
			t.Fatalf("%q: Decrypt: %q, %v\n%s", regex, meta.EncryptedRegex, err, out)
		}
		if cli := maybeSops(t); cli != nil {
			if plain, err := cli.decrypt(out, key.file); err != nil || !strings.Contains(string(plain), "password: hunter2") {
				t.Errorf("%q: sops --decrypt: %v\n%s", regex, err, plain)
			}
		}
	}
}
