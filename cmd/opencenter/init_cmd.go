package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/configedit"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// InitCmd writes a new cluster config.
type InitCmd struct {
	Cluster       string `required:"" placeholder:"NAME" help:"Cluster name (a DNS-1123 label): the file is .<NAME>-config.yaml and the overlay applications/overlays/<NAME>/."`
	Provider      string `enum:"${providers}" default:"${default_provider}" help:"Infrastructure provider: ${providers}."`
	RepoFlag      `embed:""`
	RepositoryURL string   `placeholder:"URL" help:"URL of the cluster's GitOps repository (ssh://, https:// or git@host:path); default: the origin remote of the repository, if any."`
	Env           string   `placeholder:"ENV" help:"The environment, free text; default: a part of the cluster name that names one (dev, prod, dr, qa, uat, stage...), else none."`
	SOPS          bool     `name:"sops" help:"Set up SOPS: a .sops.yaml creation rule for the configs (when there is none), the config's secrets encrypted, and the overlay's Secrets encrypted for the same recipients."`
	AgeRecipient  []string `placeholder:"AGE1..." help:"With --sops, an age public key that may decrypt (repeatable); default: the public key of your age key, found as sops finds it (SOPS_AGE_KEY_FILE, SOPS_AGE_KEY, or its default keys file)."`
}

// Run writes .<NAME>-config.yaml with the defaults, refusing to overwrite,
// and the JSON Schema its modeline names when there is none.
func (c *InitCmd) Run(s *Streams) error {
	if err := c.resolve(nil); err != nil {
		return err
	}
	if !config.IsDNSLabel(c.Cluster) {
		return badInput(fmt.Errorf("--cluster %q is not a DNS-1123 label (lowercase letters, digits and '-')", c.Cluster))
	}
	if len(c.AgeRecipient) > 0 && !c.SOPS {
		return badInput(errors.New("--age-recipient goes with --sops"))
	}
	url := c.RepositoryURL
	if url == "" {
		url = originURL(c.Repo)
	}
	if url == "" {
		return badInput(errors.New("no --repository-url given and the repository has no git remote origin: pass the URL of the cluster's GitOps repository"))
	}
	env := c.Env
	if env == "" {
		env = envOf(c.Cluster)
	}
	name := filepath.Join(c.Repo, "."+c.Cluster+"-config.yaml")
	if _, err := os.Lstat(name); err == nil {
		return badInput(fmt.Errorf("%s exists: not overwriting it", name))
	}
	var rule *policy
	if c.SOPS {
		var err error
		if rule, err = c.sopsPolicy(s, name); err != nil {
			return err
		}
	}
	text := initConfig(c.Cluster, c.Provider, url, env, c.SOPS)
	// The written file must itself be valid: check it before it exists.
	if _, err := config.Parse(name, []byte(text), config.LoadOptions{}); err != nil {
		return badInput(err)
	}
	data := []byte(text)
	if rule != nil {
		var err error
		if data, err = configedit.EncryptSecrets(data, sops.EncryptOptions{Recipients: rule.Rule.Age, Rules: sops.Rules{MACOnlyEncrypted: rule.Rule.MACOnlyEncrypted}}); err != nil {
			return err
		}
	}
	if err := writeNew(name, data); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s: enable services with 'opencenter enable NAME', then run 'opencenter render'\n", name)
	schema := filepath.Join(c.Repo, schemaModeline)
	if _, err := os.Lstat(schema); errors.Is(err, fs.ErrNotExist) {
		if err := writeNew(schema, schemaJSON()); err != nil {
			return err
		}
		fmt.Fprintf(s.Out, "wrote %s, the schema editors check the config with (refresh it with 'opencenter schema > %s' after an upgrade)\n", schema, schemaModeline)
	}
	if rule != nil {
		fmt.Fprintf(s.Out, "its secrets are encrypted for %s (%s): set each with 'opencenter secrets set PATH'\n", strings.Join(rule.Rule.Age, ", "), rule.File)
	}
	return nil
}

// sopsPolicy returns the creation rule the new config's secrets follow:
// that of the .sops.yaml there is, else one it writes at the root of the
// repository for the recipients given or the user's own key.
func (c *InitCmd) sopsPolicy(s *Streams, name string) (*policy, error) {
	p, text, err := ruleFor(c.Repo, name, c.AgeRecipient)
	if errors.Is(err, errNoRule) {
		own, oerr := ownRecipient()
		if oerr != nil {
			return nil, oerr
		}
		p, text, err = ruleFor(c.Repo, name, []string{own})
	}
	if err != nil || text == nil {
		return p, err
	}
	if err := writeNew(p.File, text); err != nil {
		return nil, err
	}
	fmt.Fprintf(s.Out, "wrote %s: secrets are encrypted for %s\n", p.File, strings.Join(p.Rule.Age, ", "))
	return p, nil
}

// ownRecipient is the public key of the user's age key, found as sops
// finds it.
func ownRecipient() (string, error) {
	ids, err := sops.LoadIdentities()
	if err != nil {
		file, ferr := sops.DefaultKeyPath()
		if ferr != nil {
			file = "keys.txt"
		}
		return "", badInput(fmt.Errorf("%s\nMake a key first (age-keygen is in the age package), then run init again:\n  mkdir -p %s\n  age-keygen -o %s\nor pass --age-recipient", strings.TrimPrefix(err.Error(), "sops: "), filepath.Dir(file), file))
	}
	for _, id := range ids {
		if x, ok := id.(*age.X25519Identity); ok {
			return x.Recipient().String(), nil
		}
	}
	return "", badInput(errors.New("no X25519 age key among yours: pass --age-recipient"))
}

// writeNew writes a file that must not exist.
func writeNew(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return badInput(fmt.Errorf("%s exists: not overwriting it", name))
	}
	if err != nil {
		return badInput(err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// originURL reads the origin remote from the repository's .git/config.
func originURL(repo string) string {
	b, err := os.ReadFile(filepath.Join(repo, ".git", "config"))
	if err != nil {
		return ""
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "["):
			in = line == `[remote "origin"]`
		case in && strings.HasPrefix(line, "url"):
			if _, v, ok := strings.Cut(line, "="); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

// initConfig is the text of a new config: required keys set, defaults shown,
// every service of the catalog listed (from the field index), disabled.
func initConfig(cluster, provider, url, env string, withSOPS bool) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("# yaml-language-server: $schema=%s", schemaModeline)
	w("# opencenter cluster config for %s. Field docs: opencenter explain <path>.", cluster)
	w("schema_version: 1")
	w("opencenter:")
	w("  meta:")
	w("    name: %s", configedit.Quote(cluster))
	if env != "" {
		w("    env: %s", configedit.Quote(env))
	} else {
		w("    # env: prod   # free text: dev, prod, ...")
	}
	w("  cluster:")
	w("    cluster_name: %s   # names applications/overlays/%s", configedit.Quote(cluster), cluster)
	w("  infrastructure:")
	w("    provider: %s", configedit.Quote(provider))
	w("  gitops:")
	w("    repository:")
	w("      url: %s", configedit.Quote(url))
	w("      branch: %s", configedit.Quote(defaultOf("opencenter.gitops.repository.branch")))
	w("    base_repo:")
	w("      url: %s", configedit.Quote(defaultOf("opencenter.gitops.base_repo.url")))
	w("      release: %s    # a tag of the base repo; or set branch instead", configedit.Quote(config.DefaultBaseRelease))
	w("    flux:")
	for _, k := range []string{"interval", "retry_interval", "timeout"} {
		w("      %s: %s", k, configedit.Quote(defaultOf("opencenter.gitops.flux."+k)))
	}
	w("      prune: %s", defaultOf("opencenter.gitops.flux.prune"))
	if withSOPS {
		w("    overlay_units:")
		w("      sops:")
		w("        enabled: true   # the overlay's Secrets, encrypted for the recipients of .sops.yaml")
	}
	// Every service listed, disabled: enabling one changes its own line, so
	// two branches that enable two services merge in git.
	w("  services:")
	w("    # Enable what this cluster runs (opencenter enable NAME); 'opencenter explain services.NAME' lists its fields.")
	for _, f := range childrenOf("opencenter.services") {
		w("    %s:", lastKey(f.Path))
		w("      enabled: false")
	}
	w("  managed_services:")
	for _, f := range childrenOf("opencenter.managed_services") {
		w("    %s:", lastKey(f.Path))
		w("      enabled: false")
	}
	w("# Credentials: opencenter secrets set secrets.services.NAME.FIELD ('opencenter explain secrets' lists them).")
	w("secrets:")
	return b.String()
}

func defaultOf(path string) string {
	if f, ok := lookupExact(path); ok {
		return f.Default
	}
	panic("no field " + path + " in the generated index")
}

// environments are the words a cluster name commonly carries for its
// environment.
var environments = []string{"dev", "development", "test", "qa", "uat", "stage", "staging", "preprod", "prod", "production", "dr", "sandbox", "demo", "lab"}

// envOf is the environment a cluster's name names (acme-prod-1: prod), ""
// when none of its parts is one.
func envOf(cluster string) string {
	for part := range strings.SplitSeq(cluster, "-") {
		if slices.Contains(environments, part) {
			return part
		}
	}
	return ""
}

// schemaModeline is where editors find the schema: init writes it at the
// root of the repository (`opencenter schema > .opencenter.schema.json`).
const schemaModeline = ".opencenter.schema.json"
