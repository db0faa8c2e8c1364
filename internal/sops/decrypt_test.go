package sops

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// encryptConfig encrypts documents["config"] for key with rules.
func encryptConfig(t *testing.T, key testKey, rules Rules) []byte {
	t.Helper()
	out, err := Encrypt([]byte(documents["config"]), EncryptOptions{
		Recipients:   []string{key.recipient},
		Rules:        rules,
		LastModified: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// replaceOnce applies re to the first match only, failing when none matches,
// so a tampering case cannot silently tamper with nothing.
func replaceOnce(t *testing.T, data []byte, re string, with func(m []string) string) []byte {
	t.Helper()
	rx := regexp.MustCompile(re)
	loc := rx.FindSubmatchIndex(data)
	if loc == nil {
		t.Fatalf("no %s in\n%s", re, data)
	}
	var groups []string
	for i := 0; i < len(loc); i += 2 {
		groups = append(groups, string(data[loc[i]:loc[i+1]]))
	}
	return append(append(append([]byte{}, data[:loc[0]]...), with(groups)...), data[loc[1]:]...)
}

// flipFirst changes the first base64 character of s.
func flipFirst(s string) string {
	if s[0] == 'A' {
		return "B" + s[1:]
	}
	return "A" + s[1:]
}

// TestTamperingIsDetected: each kind of change gives its own error, names
// where, never shows a secret, and the sops CLI rejects the same file.
func TestTamperingIsDetected(t *testing.T) {
	cli := maybeSops(t)
	key, other := newKey(t), newKey(t)
	for _, c := range tamperingCases(t, key, other) {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Decrypt(c.file, c.ids.ids())
			if !errors.Is(err, c.want) {
				t.Fatalf("error = %v, want %v", err, c.want)
			}
			if err != nil {
				for _, other := range []error{ErrNoMatchingIdentity, ErrTamperedValue, ErrMACMismatch} {
					if other != c.want && errors.Is(err, other) {
						t.Errorf("error %v is also %v", err, other)
					}
				}
				if !strings.Contains(err.Error(), c.contains) {
					t.Errorf("error %q does not mention %q", err, c.contains)
				}
				for _, secret := range []string{"abc.def", "8443", "0.75", key.id.String()} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("error %q shows the secret %q", err, secret)
					}
				}
			}
			if cli == nil {
				return
			}
			_, cliErr := cli.decrypt(c.file, c.ids.file)
			if (cliErr == nil) != (c.want == nil) {
				t.Errorf("sops --decrypt error = %v, want one: %v", cliErr, c.want != nil)
			}
		})
	}
}

// tamperingCase is a file changed after encryption and the error it gives.
type tamperingCase struct {
	name     string
	file     []byte
	ids      testKey
	want     error
	contains string
}

// tamperingCases changes a file encrypted for key in each way that must be
// detected; other is a key it is not encrypted for.
func tamperingCases(t *testing.T, key, other testKey) []tamperingCase {
	t.Helper()
	partial := encryptConfig(t, key, Rules{EncryptedRegex: SecretsRegex})
	macOnly := encryptConfig(t, key, Rules{EncryptedRegex: SecretsRegex, MACOnlyEncrypted: true})
	return []tamperingCase{
		{
			name: "wrong key", file: partial, ids: other,
			want: ErrNoMatchingIdentity, contains: key.recipient,
		},
		{
			name: "ciphertext changed", ids: key, want: ErrTamperedValue, contains: "secrets.token",
			file: replaceOnce(t, partial, `(token: ENC\[AES256_GCM,data:)([^,]+)`, func(m []string) string { return m[1] + flipFirst(m[2]) }),
		},
		{
			name: "tag changed", ids: key, want: ErrTamperedValue, contains: "secrets.port",
			file: replaceOnce(t, partial, `(port: ENC\[[^\]]*,tag:)([^,]+)`, func(m []string) string { return m[1] + flipFirst(m[2]) }),
		},
		{
			name: "value moved to another key", ids: key, want: ErrTamperedValue, contains: "secrets.token",
			file: func() []byte {
				enabled := regexp.MustCompile(`enabled: (ENC\[[^\]]*\])`).FindSubmatch(partial)[1]
				return replaceOnce(t, partial, `token: ENC\[[^\]]*\]`, func([]string) string { return "token: " + string(enabled) })
			}(),
		},
		{
			name: "plaintext where ciphertext belongs", ids: key, want: ErrTamperedValue, contains: "secrets.token",
			file: replaceOnce(t, partial, `token: ENC\[[^\]]*\]`, func([]string) string { return "token: abc.defg" }),
		},
		{
			name: "list items swapped", ids: key, want: ErrMACMismatch,
			file: replaceOnce(t, partial, `(- ENC\[[^\]]*type:int\])\n(\s+- ENC\[[^\]]*type:float\])`, func(m []string) string {
				indent := m[2][:strings.Index(m[2], "-")]
				return strings.TrimSpace(m[2]) + "\n" + indent + m[1]
			}),
		},
		{
			name: "plaintext value edited", ids: key, want: ErrMACMismatch,
			file: replaceOnce(t, partial, `region: eu-west-1`, func([]string) string { return "region: eu-west-2" }),
		},
		{
			name: "value deleted", ids: key, want: ErrMACMismatch,
			file: replaceOnce(t, partial, `ha: true\n`, func([]string) string { return "" }),
		},
		{
			name: "mac changed", ids: key, want: ErrMACMismatch,
			file: replaceOnce(t, partial, `(mac: ENC\[AES256_GCM,data:)([^,]+)`, func(m []string) string { return m[1] + flipFirst(m[2]) }),
		},
		{
			name: "lastmodified changed", ids: key, want: ErrMACMismatch,
			file: replaceOnce(t, partial, `lastmodified: "2025-01-02T03:04:05Z"`, func([]string) string { return `lastmodified: "2025-01-02T03:04:06Z"` }),
		},
		{
			name: "plaintext edited under mac_only_encrypted", ids: key, want: nil,
			file: replaceOnce(t, macOnly, `region: eu-west-1`, func([]string) string { return "region: eu-west-2" }),
		},
	}
}

// TestRoundTrip: Decrypt(Encrypt(x)) is x, for every document and rule set,
// and a fixed point when encrypted again with the same data key.
func TestRoundTrip(t *testing.T) {
	key := newKey(t)
	for docName, doc := range documents {
		for ruleName, rc := range ruleCases {
			t.Run(docName+"/"+ruleName, func(t *testing.T) {
				enc, err := Encrypt([]byte(doc), EncryptOptions{Recipients: []string{key.recipient}, Rules: rc.rules})
				if err != nil {
					t.Fatal(err)
				}
				plain, meta, err := Decrypt(enc, key.ids())
				if err != nil {
					t.Fatal(err)
				}
				// sops re-emits every scalar (2.0 comes back as 2), so the
				// reference is the document re-emitted without encryption.
				parsed, err := parseDocument([]byte(doc))
				if err != nil {
					t.Fatal(err)
				}
				reemitted, err := emitDocument(parsed)
				if err != nil {
					t.Fatal(err)
				}
				var want, got any
				if err := yaml.Unmarshal(reemitted, &want); err != nil {
					t.Fatal(err)
				}
				if err := yaml.Unmarshal(plain, &got); err != nil {
					t.Fatal(err)
				}
				if !equalYAML(got, want) {
					t.Errorf("round trip changed the document:\n--- in\n%s--- out\n%s", doc, plain)
				}
				if meta.Rules != rc.rules.withDefault() {
					t.Errorf("rules = %+v, want %+v", meta.Rules, rc.rules.withDefault())
				}

				again, err := Encrypt(plain, EncryptOptions{Recipients: []string{key.recipient}, Rules: rc.rules, DataKey: meta.DataKey})
				if err != nil {
					t.Fatal(err)
				}
				plain2, meta2, err := Decrypt(again, key.ids())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(meta2.DataKey, meta.DataKey) {
					t.Error("DataKey was not reused")
				}
				if !bytes.Equal(plain2, plain) {
					t.Errorf("decrypting, encrypting and decrypting again changed the document:\n--- once\n%s--- twice\n%s", plain, plain2)
				}
			})
		}
	}
}

// equalYAML compares decoded YAML, with NaN equal to itself (the scalars
// document has one) and timestamps compared as instants.
func equalYAML(a, b any) bool {
	switch a := a.(type) {
	case float64:
		bf, ok := b.(float64)
		return ok && (a == bf || (a != a && bf != bf))
	case time.Time:
		bt, ok := b.(time.Time)
		return ok && a.Equal(bt)
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if !equalYAML(v, bm[k]) {
				return false
			}
		}
		return true
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !equalYAML(a[i], bs[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// TestEncryptIsDeterministicGivenRand: with Rand, DataKey and LastModified
// fixed, only the age stanzas (which age randomises itself) differ.
func TestEncryptIsDeterministicGivenRand(t *testing.T) {
	key := newKey(t)
	encrypt := func() []byte {
		out, err := Encrypt([]byte(documents["config"]), EncryptOptions{
			Recipients:   []string{key.recipient},
			Rand:         rand.NewChaCha8([32]byte{1}),
			LastModified: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		})
		if err != nil {
			t.Fatal(err)
		}
		return ageArmor.ReplaceAll(out, nil)
	}
	a, b := encrypt(), encrypt()
	if !bytes.Equal(a, b) {
		t.Errorf("two encryptions with the same Rand differ:\n%s\n%s", a, b)
	}
	if !encValue.Match(a) {
		t.Error("nothing was encrypted")
	}
}

// TestSequenceComments: an encrypted comment inside a list stays a comment
// (sops 3.13.3 would make it an extra ENC[...] item, which sops 3.13.2 in
// Flux cannot verify); sops decrypts our form to what it prints for its own.
func TestSequenceComments(t *testing.T) {
	key := newKey(t)
	doc := "list:\n  - one\n  # about two\n  - two\n  #\nflow: [1, 2] # about flow\n"
	ours, err := Encrypt([]byte(doc), EncryptOptions{Recipients: []string{key.recipient}})
	if err != nil {
		t.Fatal(err)
	}
	var items struct{ List, Flow []any }
	if err := yaml.Unmarshal(ours, &items); err != nil {
		t.Fatal(err)
	}
	if len(items.List) != 2 || len(items.Flow) != 2 {
		t.Errorf("comments became list items:\n%s", ours)
	}
	if strings.Contains(string(ours), "about") || strings.Count(string(ours), "#ENC[") != 2 {
		t.Errorf("comments are not encrypted as comments:\n%s", ours)
	}
	plain, _, err := Decrypt(ours, key.ids())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "#\n") {
		t.Errorf("the empty comment in the list was kept:\n%s", plain)
	}
	for _, c := range []string{"# about two", "# about flow"} {
		if !strings.Contains(string(plain), c) {
			t.Errorf("Decrypt lost %q:\n%s", c, plain)
		}
	}

	cli := maybeSops(t)
	if cli == nil {
		return
	}
	byCLI, err := cli.decrypt(ours, key.file)
	if err != nil {
		t.Fatalf("sops cannot decrypt our file: %v\n%s", err, ours)
	}
	dir := t.TempDir()
	writeFile(t, dir+"/plain.yaml", []byte(doc))
	bySops := cli.mustRun(dir, nil, "--encrypt", "--age", key.recipient, "plain.yaml")
	sopsOwn, err := cli.decrypt(bySops, key.file)
	if err != nil {
		t.Fatal(err)
	}
	ourOfSops, _, err := Decrypt(bySops, key.ids())
	if err != nil {
		t.Fatalf("Decrypt of sops's file: %v", err)
	}
	if !bytes.Equal(byCLI, plain) || !bytes.Equal(ourOfSops, sopsOwn) {
		t.Errorf("plaintexts differ:\n--- Decrypt(ours)\n%s--- sops(ours)\n%s--- sops(sops)\n%s--- Decrypt(sops)\n%s", plain, byCLI, sopsOwn, ourOfSops)
	}
	// sops decrypts its own empty comment in a list to an extra "" item.
	if !strings.Contains(string(sopsOwn), `- ""`) {
		t.Errorf("sops no longer turns an empty comment in a list into an item; Encrypt need not drop them:\n%s", sopsOwn)
	}
}

// TestAliasBomb: a file whose aliases expand to billions of nodes is
// refused quickly by every reader, not expanded.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := range 9 {
		name := fmt.Sprintf("l%d", i)
		fmt.Fprintf(&b, "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	b.WriteString("sops:\n    version: 3.13.3\n")
	data := []byte(b.String())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, _, err := Decrypt(data, nil); err == nil || !strings.Contains(err.Error(), "aliasing") {
			t.Errorf("Decrypt: %v", err)
		}
		if _, err := ReadMetadata(data); err == nil {
			t.Error("ReadMetadata read an alias bomb")
		}
		if IsEncrypted(data) {
			t.Error("IsEncrypted read an alias bomb")
		}
		if _, err := Encrypt(data[:bytes.Index(data, []byte("sops:"))], EncryptOptions{Recipients: []string{newKey(t).recipient}}); err == nil {
			t.Error("Encrypt read an alias bomb")
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("an alias bomb is still being expanded after 30 s")
	}
}
