// Package sops reads and writes SOPS-encrypted YAML with age keys, in the
// exact format the sops CLI (3.13) and Flux's kustomize-controller read, so
// opencenter can write encrypted Secrets and partially encrypted configs
// without running sops, and read what sops wrote. It is written on
// filippo.io/age, yaml.v3 and the standard library; the main module does not depend on
// sops. The interop tests run the real sops CLI (see tools/sops).
//
// # The format
//
// Every value is encrypted in place with one random 32-byte data key:
//
//	ENC[AES256_GCM,data:<b64>,iv:<b64>,tag:<b64>,type:str|int|float|bool|time|comment]
//
// AES-256-GCM with a 32-byte IV; the additional data is the mapping keys on
// the value's path joined by ':' plus a trailing ':' (sequence indexes are
// not keys). Floats are written in shortest decimal form, booleans as
// True/False. Empty strings stay "" and are not encrypted. null values are
// left alone. Keys are never encrypted; comments are, like values.
//
// The MAC is SHA-512 over the plaintext text of every value in document order
// (every value, plaintext ones included, unless mac_only_encrypted, which
// hashes only encrypted ones after a fixed SHA-256("sops") prefix), written
// as upper-case hex and encrypted like a str value with the lastmodified
// time (RFC 3339, UTC, to the second) as additional data. Comments are not
// part of it.
//
// The metadata goes last in the top-level mapping, keys sorted:
//
//	sops:
//	    age:
//	        - enc: |
//	            -----BEGIN AGE ENCRYPTED FILE-----
//	            ...
//	          recipient: age1...
//	    lastmodified: "2025-01-02T03:04:05Z"
//	    mac: ENC[AES256_GCM,...,type:str]
//	    unencrypted_suffix: _unencrypted
//	    version: 3.13.3
//
// Each age entry is a separate armored age file holding the data key for one
// recipient. sops sorts the keys of the block, so the selector
// (unencrypted_suffix: _unencrypted when none was given) lands in
// alphabetical order: encrypted_regex before lastmodified, unencrypted_*
// after mac. The whole file is re-emitted by yaml.v3 with four-space
// indentation, so scalars may change form (2.0 becomes 2, and so an int the
// next time; 2024-01-01 becomes 2024-01-01T00:00:00Z; n is quoted): sops
// does the same, and Decrypt returns the bytes `sops --decrypt` prints.
// DecryptNode decrypts a parsed yaml.v3 tree in place instead, for callers
// that keep the file's own lines: it walks the tree in the order of the same
// document model, so it checks the same MAC, and gives each decrypted scalar
// the form it has when Decrypt's output is parsed.
//
// # Selectors
//
// Which values are encrypted is decided per value from the keys on its path:
// a selector matches when any key on the path matches, and regular
// expressions are unanchored. See Rules.
//
// # .sops.yaml
//
// sops looks for .sops.yaml from its working directory upwards (not from the
// file's directory), takes the file path made absolute, cuts the
// .sops.yaml's directory off its front, and uses the first creation rule
// whose path_regex matches anywhere in the rest (or that has none). A
// .sops.yaml without creation_rules counts as absent; one whose rules all
// miss makes sops refuse to encrypt, even when --age is given. See
// Config.FindRule and FindConfigFile.
//
// # Not supported
//
// Files with several YAML documents, JSON/INI/dotenv/binary files, key types
// other than age (files that also carry pgp or kms keys decrypt with age),
// key_groups, and the comment regex selectors. Encrypt differs from sops
// 3.13.3 in one place, comments inside lists, where sops writes a file that
// the sops in Flux cannot verify (see Encrypt).
package sops
