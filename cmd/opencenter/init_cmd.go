package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/configedit"
)

// InitCmd writes a new cluster config.
type InitCmd struct {
	Cluster       string `required:"" placeholder:"NAME" help:"Cluster name (a DNS-1123 label): the file is .<NAME>-config.yaml and the overlay applications/overlays/<NAME>/."`
	Provider      string `enum:"${providers}" default:"${default_provider}" help:"Infrastructure provider: ${providers}."`
	RepoFlag      `embed:""`
	RepositoryURL string `placeholder:"URL" help:"URL of the cluster's GitOps repository (ssh://, https:// or git@host:path); default: the origin remote of --repo, if any."`
	Env           string `placeholder:"ENV" help:"The environment, free text (dev, prod, dr...); default: the last part of the cluster name after a '-'."`
}

// Run writes .<NAME>-config.yaml with the defaults, refusing to overwrite.
func (c *InitCmd) Run(s *Streams) error {
	if err := c.resolve(nil); err != nil {
		return err
	}
	if !config.IsDNSLabel(c.Cluster) {
		return badInput(fmt.Errorf("--cluster %q is not a DNS-1123 label (lowercase letters, digits and '-')", c.Cluster))
	}
	url := c.RepositoryURL
	if url == "" {
		url = originURL(c.Repo)
	}
	if url == "" {
		return badInput(errors.New("no --repository-url given and --repo has no git remote origin: pass the URL of the cluster's GitOps repository"))
	}
	env := c.Env
	if env == "" {
		env = envOf(c.Cluster)
	}
	text := initConfig(c.Cluster, c.Provider, url, env)
	name := filepath.Join(c.Repo, "."+c.Cluster+"-config.yaml")
	// The written file must itself be valid: check it before it exists.
	if _, err := config.Parse(name, []byte(text), config.LoadOptions{}); err != nil {
		return badInput(err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return badInput(fmt.Errorf("%s exists: not overwriting it", name))
	}
	if err != nil {
		return badInput(err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s: enable services under opencenter.services, then run opencenter render\n", name)
	return nil
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
func initConfig(cluster, provider, url, env string) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("# yaml-language-server: $schema=%s", schemaModeline)
	w("# opencenter cluster config for %s. Field docs: opencenter explain <path>.", cluster)
	w("schema_version: 1")
	w("opencenter:")
	w("  meta:")
	w("    name: %s", configedit.Quote(cluster))
	w("    env: %s          # free text: dev, prod, ...", configedit.Quote(env))
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
	return b.String()
}

func defaultOf(path string) string {
	if f, ok := lookupExact(path); ok {
		return f.Default
	}
	panic("no field " + path + " in the generated index")
}

func envOf(cluster string) string {
	if i := strings.LastIndex(cluster, "-"); i >= 0 {
		return cluster[i+1:]
	}
	return cluster
}

// schemaModeline is where editors find the schema: `opencenter schema >
// .opencenter.schema.json` at the root of the repository.
const schemaModeline = "./.opencenter.schema.json"
