package sops

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// DefaultUnencryptedSuffix is what sops writes as unencrypted_suffix when no
// rule is given: every value is encrypted except under a key ending with it.
const DefaultUnencryptedSuffix = "_unencrypted"

// Rules choose which values of a document are encrypted. At most one of the
// four selectors may be set, as in sops; when none is, sops (and Encrypt)
// uses unencrypted_suffix: _unencrypted.
//
// Every selector is tested against each key on the path to a value, not only
// the last one, and a regular expression matches anywhere in a key (it is not
// anchored). So encrypted_regex '^secrets$' also encrypts a value nested
// under a key named exactly "secrets" at any depth.
type Rules struct {
	// UnencryptedSuffix leaves a value plaintext when a key on its path ends with it.
	UnencryptedSuffix string
	// EncryptedSuffix encrypts a value only when a key on its path ends with it.
	EncryptedSuffix string
	// UnencryptedRegex leaves a value plaintext when a key on its path matches it.
	UnencryptedRegex string
	// EncryptedRegex encrypts a value only when a key on its path matches it.
	EncryptedRegex string
	// MACOnlyEncrypted computes the MAC over encrypted values only, so
	// plaintext values may be edited without sops; it is off by default.
	MACOnlyEncrypted bool
}

// selectors pairs each selector with its metadata key, in the order of
// sops's error message.
func (r Rules) selectors() [][2]string {
	return [][2]string{
		{"encrypted_suffix", r.EncryptedSuffix},
		{"unencrypted_suffix", r.UnencryptedSuffix},
		{"encrypted_regex", r.EncryptedRegex},
		{"unencrypted_regex", r.UnencryptedRegex},
	}
}

// withDefault returns r with sops's default selector filled in when none is set.
func (r Rules) withDefault() Rules {
	for _, s := range r.selectors() {
		if s[1] != "" {
			return r
		}
	}
	r.UnencryptedSuffix = DefaultUnencryptedSuffix
	return r
}

// matcher is Rules compiled for the tree walk.
type matcher struct {
	Rules
	unencrypted, encrypted *regexp.Regexp
	// keys, when set, are the only keys the selector's regular expression
	// matches: it is ^key$ or ^(key|key...)$, as most rules are, and a key
	// is looked up instead of run through the regexp.
	keys []string
}

// compile compiles r, once per distinct Rules in the process: a render
// encrypts many files under the same rules.
func (r Rules) compile() (*matcher, error) { return matchers.get(r, Rules.compileNew) }

// matchers holds the compiled Rules; a matcher is read-only.
var matchers = memo[Rules, *matcher]{max: 256}

func (r Rules) compileNew() (*matcher, error) {
	var set []string
	for _, s := range r.selectors() {
		if s[1] != "" {
			set = append(set, s[0])
		}
	}
	if len(set) > 1 {
		return nil, fmt.Errorf("only one of encrypted_suffix, unencrypted_suffix, encrypted_regex, unencrypted_regex may be set, got %s", strings.Join(set, " and "))
	}
	m := &matcher{Rules: r}
	var err error
	// sops ignores a regular expression that does not compile, so a typo in
	// encrypted_regex would leave everything in plaintext; refuse instead.
	if r.UnencryptedRegex != "" {
		if m.unencrypted, err = Pattern(r.UnencryptedRegex); err != nil {
			return nil, fmt.Errorf("unencrypted_regex: %w", err)
		}
	}
	if r.EncryptedRegex != "" {
		if m.encrypted, err = Pattern(r.EncryptedRegex); err != nil {
			return nil, fmt.Errorf("encrypted_regex: %w", err)
		}
	}
	m.keys = exactKeys(cmp.Or(r.UnencryptedRegex, r.EncryptedRegex))
	return m, nil
}

// encrypts reports whether the value at path (keys only) is encrypted.
func (m *matcher) encrypts(path []string) bool {
	return m.encryptsIf(slices.ContainsFunc(path, m.selects))
}

// selects reports whether the selector matches key k.
func (m *matcher) selects(k string) bool {
	switch {
	case m.UnencryptedSuffix != "":
		return strings.HasSuffix(k, m.UnencryptedSuffix)
	case m.EncryptedSuffix != "":
		return strings.HasSuffix(k, m.EncryptedSuffix)
	case m.keys != nil:
		return slices.Contains(m.keys, k)
	case m.unencrypted != nil:
		return m.unencrypted.MatchString(k)
	case m.encrypted != nil:
		return m.encrypted.MatchString(k)
	}
	return false
}

// exactKeys returns the keys a regular expression of the form ^key$ or
// ^(key|key...)$ matches, and nil for any other form (flags, classes,
// repetition, a prefix the parser factored out of the alternatives).
func exactKeys(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) != 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[2].Op != syntax.OpEndText {
		return nil
	}
	body := re.Sub[1]
	if body.Op == syntax.OpCapture {
		body = body.Sub[0]
	}
	literal := func(r *syntax.Regexp) (string, bool) {
		// U+FFFD also matches each invalid byte of a key: leave it to the regexp.
		if r.Op != syntax.OpLiteral || r.Flags&syntax.FoldCase != 0 || slices.Contains(r.Rune, utf8.RuneError) {
			return "", false
		}
		return string(r.Rune), true
	}
	if k, ok := literal(body); ok {
		return []string{k}
	}
	if body.Op != syntax.OpAlternate {
		return nil
	}
	keys := make([]string, 0, len(body.Sub))
	for _, alt := range body.Sub {
		k, ok := literal(alt)
		if !ok {
			return nil
		}
		keys = append(keys, k)
	}
	return keys
}

// hashes reports whether the MAC counts a value that is encrypted or not:
// under mac_only_encrypted, plaintext values do not count.
func (r Rules) hashes(encrypted bool) bool { return encrypted || !r.MACOnlyEncrypted }

// encryptsIf reports whether a value is encrypted given whether the
// selector matches some key on its path, so a tree walk can carry that one
// bit down instead of testing every key again at every value.
func (m *matcher) encryptsIf(selected bool) bool {
	if m.UnencryptedSuffix != "" || m.unencrypted != nil {
		return !selected
	}
	if m.EncryptedSuffix != "" || m.encrypted != nil {
		return selected
	}
	return true
}

var errCommentRules = errors.New("encrypted_comment_regex and unencrypted_comment_regex are not supported")

// Encrypts reports whether sops, with these rules, encrypts the value at
// path (the mapping keys from the document root), as Encrypt would.
func (r Rules) Encrypts(path []string) (bool, error) {
	m, err := r.withDefault().compile()
	if err != nil {
		return false, err
	}
	return m.encrypts(path), nil
}
