package sops

import (
	"errors"
	"fmt"
	"strings"
)

// SecretsKey is the top-level key of a partially encrypted file: only the
// values under it are encrypted, the rest of the document stays readable.
const SecretsKey = "secrets"

// SecretsRegex is the encrypted_regex of a partially encrypted file, the one
// `sops --encrypt --encrypted-regex '^secrets$'` records.
const SecretsRegex = "^" + SecretsKey + "$"

// EncryptSecrets encrypts only the top-level secrets: mapping of a document,
// exactly as `sops --encrypt --encrypted-regex '^secrets$'` does, so a human
// can read and review the rest of the file and sops can still decrypt it.
//
// Because sops tests encrypted_regex against every key on a value's path, a
// key named secrets anywhere else would be encrypted too; EncryptSecrets
// refuses such a document rather than hide more than the caller asked. The
// other selectors of opts.Rules must be empty.
func EncryptSecrets(plain []byte, opts EncryptOptions) ([]byte, error) {
	if opts.Rules != (Rules{MACOnlyEncrypted: opts.MACOnlyEncrypted}) {
		return nil, errors.New("sops: EncryptSecrets sets encrypted_regex itself; leave the other selectors empty")
	}
	doc, err := parseDocument(plain)
	if err != nil {
		return nil, fmt.Errorf("sops: %w", err)
	}
	if nested := nestedSecretsKeys(doc, nil, nil); len(nested) > 0 {
		return nil, fmt.Errorf("sops: a key named %q below the top level (at %s) would be encrypted too; rename it", SecretsKey, strings.Join(nested, ", "))
	}
	opts.EncryptedRegex = SecretsRegex
	return Encrypt(plain, opts)
}

// nestedSecretsKeys lists the paths of secrets keys outside the top level,
// except under the top-level secrets key, which is encrypted anyway.
func nestedSecretsKeys(v any, path []string, found []string) []string {
	switch v := v.(type) {
	case mapping:
		for _, e := range v {
			k, ok := e.key.(string)
			if !ok || (len(path) == 0 && k == SecretsKey) {
				continue
			}
			sub := append(path[:len(path):len(path)], k)
			if k == SecretsKey {
				found = append(found, strings.Join(sub, "."))
			}
			found = nestedSecretsKeys(e.value, sub, found)
		}
	case []any:
		for _, item := range v {
			found = nestedSecretsKeys(item, path, found)
		}
	}
	return found
}
