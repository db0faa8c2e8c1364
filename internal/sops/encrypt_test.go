package sops

import (
	"bytes"
	"crypto/sha512"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

func TestEncryptRefuses(t *testing.T) {
	key := newKey(t)
	ok := EncryptOptions{Recipients: []string{key.recipient}}
	cases := []struct {
		name, doc string
		opts      EncryptOptions
		want      string
	}{
		{"no recipient", "a: b\n", EncryptOptions{}, "no age recipients"},
		{"not a recipient", "a: b\n", EncryptOptions{Recipients: []string{key.id.String()}}, "not an age public key"},
		{"two selectors", "a: b\n", EncryptOptions{Recipients: ok.Recipients, Rules: Rules{EncryptedRegex: "a", UnencryptedSuffix: "_x"}}, "only one of"},
		{"invalid regex", "a: b\n", EncryptOptions{Recipients: ok.Recipients, Rules: Rules{EncryptedRegex: "("}}, "encrypted_regex"},
		{"short data key", "a: b\n", EncryptOptions{Recipients: ok.Recipients, DataKey: make([]byte, 16)}, "16 bytes"},
		{"empty", "\n", ok, "empty"},
		{"sequence root", "- a\n", ok, "sequence"},
		{"scalar root", "a\n", ok, "single value"},
		{"two documents", "a: b\n---\nc: d\n", ok, "more than one YAML document"},
		{"duplicate key", "a: b\na: c\n", ok, "already defined"},
		{"duplicate nested key", "a:\n  b: 1\n  b: 2\n", ok, "already defined"},
		{"integer key", "1: b\n", ok, "only string keys"},
		{"integer beyond int64", "a: 18446744073709551615\n", ok, "not supported"},
		{"already encrypted", "a: b\nsops: {}\n", ok, "already encrypted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Encrypt([]byte(c.doc), c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := Encrypt([]byte("a: b\nsops: {}\n"), ok); !errors.Is(err, ErrAlreadyEncrypted) {
		t.Errorf("error = %v, want ErrAlreadyEncrypted", err)
	}
}

func TestDecryptRefuses(t *testing.T) {
	key := newKey(t)
	if _, _, err := Decrypt([]byte("a: b\n"), key.ids()); !errors.Is(err, ErrNotEncrypted) {
		t.Errorf("plain file: %v", err)
	}
	enc := encryptConfig(t, key, Rules{})
	if _, _, err := Decrypt(enc, nil); !errors.Is(err, ErrNoMatchingIdentity) {
		t.Errorf("no identities: %v", err)
	}
	withComment := bytes.Replace(enc, []byte("    unencrypted_suffix: _unencrypted\n"), []byte("    encrypted_comment_regex: x\n"), 1)
	if _, _, err := Decrypt(withComment, key.ids()); err == nil || !strings.Contains(err.Error(), "comment_regex") {
		t.Errorf("comment regex selector: %v", err)
	}
	pgpOnly := []byte("a: b\nsops:\n    pgp:\n        - fp: ABC\n          enc: x\n    lastmodified: \"2025-01-02T03:04:05Z\"\n    mac: x\n    version: 3.13.3\n")
	if _, _, err := Decrypt(pgpOnly, key.ids()); err == nil || !strings.Contains(err.Error(), "only to pgp") {
		t.Errorf("pgp-only file: %v", err)
	}
}

func TestMetadata(t *testing.T) {
	a, b := newKey(t), newKey(t)
	when := time.Date(2025, 1, 2, 3, 4, 5, 987, time.FixedZone("X", 3600))
	enc, err := Encrypt([]byte(documents["config"]), EncryptOptions{
		Recipients:   []string{a.recipient, b.recipient},
		Rules:        Rules{EncryptedRegex: SecretsRegex},
		LastModified: when,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !IsEncrypted(enc) || IsEncrypted([]byte(documents["config"])) {
		t.Error("IsEncrypted is wrong")
	}
	if !bytes.Contains(enc, []byte(`lastmodified: "2025-01-02T02:04:05Z"`)) {
		t.Errorf("lastmodified is not UTC to the second:\n%s", enc)
	}
	meta, err := ReadMetadata(enc)
	if err != nil {
		t.Fatal(err)
	}
	want := Metadata{
		Recipients:   []string{a.recipient, b.recipient},
		LastModified: when.Truncate(time.Second).UTC(),
		Rules:        Rules{EncryptedRegex: SecretsRegex},
		Version:      Version,
	}
	if !equalMetadata(meta, want) {
		t.Errorf("ReadMetadata = %+v\nwant %+v", meta, want)
	}
}

func equalMetadata(a, b Metadata) bool {
	return strings.Join(a.Recipients, ",") == strings.Join(b.Recipients, ",") &&
		a.LastModified.Equal(b.LastModified) && a.Rules == b.Rules && a.Version == b.Version &&
		bytes.Equal(a.DataKey, b.DataKey) && len(a.OtherKeyTypes) == len(b.OtherKeyTypes)
}

// TestVersionIsPinned: the version Encrypt writes is the sops the tests run.
func TestVersionIsPinned(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "tools", "sops", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(mod, []byte("github.com/getsops/sops/v3 v"+Version+"\n")) {
		t.Errorf("tools/sops/go.mod does not pin sops v%s", Version)
	}
	cli := maybeSops(t)
	if cli == nil {
		return
	}
	if out := cli.mustRun(t.TempDir(), nil, "--version", "--disable-version-check"); !bytes.HasPrefix(out, []byte("sops "+Version)) {
		t.Errorf("sops --version = %q, want sops %s (rebuild bin/sops)", out, Version)
	}
}

func TestEncryptSecrets(t *testing.T) {
	key := newKey(t)
	out, err := EncryptSecrets([]byte(documents["config"]), EncryptOptions{Recipients: []string{key.recipient}})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["cluster"] != "prod-eu" || doc["unencrypted_note_unencrypted"] != "visible" {
		t.Errorf("the plaintext part is not readable:\n%s", out)
	}
	if token := doc["secrets"].(map[string]any)["token"].(string); !strings.HasPrefix(token, encPrefix) {
		t.Errorf("secrets.token = %q, want it encrypted", token)
	}
	if meta, _ := ReadMetadata(out); meta.EncryptedRegex != SecretsRegex {
		t.Errorf("encrypted_regex = %q", meta.EncryptedRegex)
	}

	nested := "secrets: {a: b}\nunits:\n  - name: x\n    secrets: [y]\n"
	if _, err := EncryptSecrets([]byte(nested), EncryptOptions{Recipients: []string{key.recipient}}); err == nil || !strings.Contains(err.Error(), "units.secrets") {
		t.Errorf("nested secrets key: %v", err)
	}
	if _, err := EncryptSecrets([]byte("a: b\n"), EncryptOptions{Recipients: []string{key.recipient}, Rules: Rules{EncryptedRegex: "x"}}); err == nil {
		t.Error("EncryptSecrets accepted another selector")
	}
}

// roundTripSeeds are the values FuzzRoundTrip starts from.
var roundTripSeeds = []string{"", "plain", "multi\nline\n", " leading space", "ENC[AES256_GCM,data:x]", "#not a comment", "日本語", "\x00\x01", "null", "123", "- a", "a: b"}

// FuzzRoundTrip: Decrypt(Encrypt(x)) == x for any string value under any
// key, and DecryptNode agrees.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range roundTripSeeds {
		f.Add("key", s)
	}
	f.Add("key", "\t\n") // yaml.v3 cannot write it back: written double-quoted
	f.Add("", "empty key")
	f.Add("a:b", "colon in key")
	key, err := newFuzzKey()
	if err != nil {
		f.Fatal(err)
	}
	dataKey := bytes.Repeat([]byte{3}, DataKeySize)
	f.Fuzz(func(t *testing.T, k, v string) {
		plain, err := yaml.Marshal(map[string]string{k: v})
		if err != nil {
			t.Skip("yaml.v3 cannot write it")
		}
		var back map[string]string
		if err := yaml.Unmarshal(plain, &back); err != nil || back[k] != v || len(back) != 1 {
			// yaml.v3 writes some strings in a form it cannot read back
			// ("\t\n"): a user writes them double-quoted.
			quoted := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: k},
				{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: v}}}
			if plain, err = yaml.Marshal(quoted); err != nil || yaml.Unmarshal(plain, &back) != nil || back[k] != v || len(back) != 1 {
				t.Skip("yaml.v3 cannot write it so that it reads it back")
			}
		}
		enc, err := Encrypt(plain, EncryptOptions{Recipients: []string{key.recipient}, DataKey: dataKey, Rand: rand.NewChaCha8([32]byte{}), LastModified: time.Unix(0, 0)})
		if k == metadataKey {
			if !errors.Is(err, ErrAlreadyEncrypted) {
				t.Fatalf("sops key: %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		dec, _, err := Decrypt(enc, key.ids())
		if err != nil {
			t.Fatalf("%v\n%s", err, enc)
		}
		var got map[string]string
		if err := yaml.Unmarshal(dec, &got); err != nil {
			t.Fatal(err)
		}
		if got[k] != v || len(got) != 1 {
			t.Errorf("round trip of %q: %q -> %q", k, v, got[k])
		}
		checkNodeAgrees(t, enc, key.ids())
	})
}

// TestMACText holds macText to what sops stores, the digest's upper-case
// hex as fmt's %X writes it, over random inputs.
func TestMACText(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		h := sha512.New()
		data := make([]byte, r.IntN(300))
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		h.Write(data)
		want := fmt.Sprintf("%X", h.Sum(nil))
		if got := macText(h); got != want {
			t.Fatalf("input %d: macText = %s, want %s", i, got, want)
		}
	}
}
