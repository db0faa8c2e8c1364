package sops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ConfigFileName is the file sops reads creation rules from. sops ignores a
// .sops.yml (it only warns about it), and so does this package.
const ConfigFileName = ".sops.yaml"

// configSearchDepth is how many directories sops climbs looking for the file.
const configSearchDepth = 100

// ErrNoConfig: no .sops.yaml in the directory or any parent.
var ErrNoConfig = errors.New("no " + ConfigFileName + " found")

// ErrNoRule: the .sops.yaml has no creation rule for the file. sops then
// refuses to encrypt, even with --age on the command line.
var ErrNoRule = errors.New("no matching creation rule")

// Config is the part of a .sops.yaml that decides how a new file is encrypted.
type Config struct {
	// CreationRules are tried in order; the first that matches wins.
	CreationRules []CreationRule
	// HasCreationRules is false when the file has no creation_rules key at
	// all; sops then behaves as if there were no .sops.yaml.
	HasCreationRules bool
}

// CreationRule is one entry of creation_rules.
type CreationRule struct {
	// PathRegex is matched, unanchored, against the file's path relative to
	// the .sops.yaml's directory; empty matches every file.
	PathRegex string
	// Age are the recipients, from a comma-separated string or a list.
	Age []string
	// Rules are the rule's selectors (encrypted_regex, ...).
	Rules
	// Unsupported names the keys of this rule this package cannot honour
	// (pgp, kms, key_groups, comment regexes, ...); a caller should refuse
	// the rule rather than encrypt differently from sops.
	Unsupported []string
}

// unsupportedRuleKeys are creation rule keys sops honours and this package does not.
var unsupportedRuleKeys = []string{
	"azure_keyvault", "encrypted_comment_regex", "gcp_kms", "hc_vault_transit_uri",
	"hckms", "key_groups", "kms", "pgp", "shamir_threshold", "unencrypted_comment_regex",
}

// ParseConfig reads a .sops.yaml.
func ParseConfig(data []byte) (*Config, error) {
	var raw struct {
		CreationRules []map[string]any `yaml:"creation_rules"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", ConfigFileName, err)
	}
	c := &Config{HasCreationRules: raw.CreationRules != nil}
	for i, m := range raw.CreationRules {
		r, err := parseCreationRule(m)
		if err != nil {
			return nil, fmt.Errorf("%s: creation_rules[%d]: %w", ConfigFileName, i, err)
		}
		c.CreationRules = append(c.CreationRules, r)
	}
	return c, nil
}

func parseCreationRule(m map[string]any) (CreationRule, error) {
	var r CreationRule
	str := func(key string) (string, error) {
		switch v := m[key].(type) {
		case nil:
			return "", nil
		case string:
			return v, nil
		default:
			return "", fmt.Errorf("%s must be a string, not %T", key, v)
		}
	}
	var err error
	fields := []struct {
		key string
		dst *string
	}{
		{"path_regex", &r.PathRegex},
		{"unencrypted_suffix", &r.UnencryptedSuffix},
		{"encrypted_suffix", &r.EncryptedSuffix},
		{"unencrypted_regex", &r.UnencryptedRegex},
		{"encrypted_regex", &r.EncryptedRegex},
	}
	for _, f := range fields {
		if *f.dst, err = str(f.key); err != nil {
			return r, err
		}
	}
	if v, ok := m["mac_only_encrypted"].(bool); ok {
		r.MACOnlyEncrypted = v
	}
	switch v := m["age"].(type) {
	case nil:
	case string:
		// As sops: split on commas, trim, and skip empty items (a trailing comma).
		for item := range strings.SplitSeq(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				r.Age = append(r.Age, item)
			}
		}
	case []any:
		for _, item := range v {
			s, ok := item.(string)
			if !ok {
				return r, fmt.Errorf("age: expected a string in the list, got %T", item)
			}
			r.Age = append(r.Age, strings.TrimSpace(s))
		}
	default:
		return r, fmt.Errorf("age must be a string or a list of strings, not %T", v)
	}
	for _, k := range unsupportedRuleKeys {
		if v, ok := m[k]; ok && v != nil && v != "" {
			r.Unsupported = append(r.Unsupported, k)
		}
	}
	return r, nil
}

// LoadConfig reads the .sops.yaml at path.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// FindConfigFile returns the .sops.yaml in dir or the nearest parent, as sops
// does. Note that sops starts from its working directory, not from the
// encrypted file's directory: a .sops.yaml next to a file in a subdirectory
// is not used when sops runs from above it.
func FindConfigFile(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for range configSearchDepth {
		path := filepath.Join(dir, ConfigFileName)
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("%w in %s or its parents", ErrNoConfig, dir)
}

// FindRule returns the creation rule of configDir/.sops.yaml for filePath.
func FindRule(configDir, filePath string) (*CreationRule, error) {
	c, err := LoadConfig(filepath.Join(configDir, ConfigFileName))
	if err != nil {
		return nil, err
	}
	return c.FindRule(configDir, filePath)
}

// FindRule returns the creation rule for filePath (absolute, or relative to
// the working directory) of a .sops.yaml in configDir, with sops's semantics:
// the path is made absolute, the directory of the .sops.yaml and a separator
// are cut off its front (so a file outside that directory is matched by its
// absolute path), and the first rule whose path_regex matches anywhere in it,
// or that has no path_regex, wins. Symbolic links are not resolved.
func (c *Config) FindRule(configDir, filePath string) (*CreationRule, error) {
	if !c.HasCreationRules {
		return nil, fmt.Errorf("%w: %s has no creation_rules", ErrNoRule, ConfigFileName)
	}
	dir, err := filepath.Abs(configDir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(filePath)
	if err != nil {
		return nil, err
	}
	rel := strings.TrimPrefix(abs, dir+string(filepath.Separator))
	for i := range c.CreationRules {
		r := &c.CreationRules[i]
		if r.PathRegex != "" {
			re, err := Pattern(r.PathRegex)
			if err != nil {
				return nil, fmt.Errorf("creation_rules[%d]: path_regex: %w", i, err)
			}
			if !re.MatchString(rel) {
				continue
			}
		}
		if _, err := r.Rules.compile(); err != nil {
			return nil, fmt.Errorf("creation_rules[%d]: %w", i, err)
		}
		return r, nil
	}
	return nil, fmt.Errorf("%w for %s in %s", ErrNoRule, rel, filepath.Join(dir, ConfigFileName))
}
