package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
	"github.com/opencenter-dev/opencenter/internal/gitrepo"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/plan"
	"github.com/opencenter-dev/opencenter/internal/sops"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// exitFindings is verify's exit code when Flux would fail.
const exitFindings = 1

// VerifyCmd simulates Flux offline over each cluster's rendered overlay and
// a checkout of the base repository.
type VerifyCmd struct {
	RepoFlag   `embed:""`
	Base       string `required:"" placeholder:"DIR" help:"Git checkout (or bare git directory) of the base repository; GitRepositories on gitops.base_repo.url are read from it at their tag, branch or commit."`
	OutputFlag `embed:""`
	Configs    []string `arg:"" optional:"" name:"CONFIG" help:"Config files to verify (default: every .<cluster>-config.yaml at the root of --repo)."`
}

// Help explains what verify checks and what it cannot.
func (c *VerifyCmd) Help() string {
	return `Renders each cluster's overlay in memory (nothing is written, no secret value is printed) and
does what Flux would after 'flux bootstrap git --path=applications/overlays/<cluster>': builds the
overlay, then every Flux Kustomization any build yields, in its GitRepository's tree, the way
kustomize-controller builds it (targetNamespace, spec.patches, generated kustomization,
spec.include).

GitRepositories on gitops.repository.url are the rendered overlay; those on gitops.base_repo.url
are read from --base at their tag, branch or commit; any other repository (a customer repository,
a fork) is not checked offline, and neither are remote resources of kustomizations: both are
listed as "info: ..." lines, never as findings. So are values that helm-controller ignores (it
reads only the first YAML document of a values key), OLM Subscriptions with Manual approval,
whose operator OLM installs only once someone approves its InstallPlan, Secret manifests
committed in plaintext, Secrets of values that the config names as existing outside the
repository (a *_existing_secret field), and a --base whose tag or branch is not at the commit opencenter's
index of it holds (the render checked the base against the index). Each cluster ends with a
summary line.

Findings, one per line as "cluster: flux unit: file: message":
  - a path that does not exist or does not build; a base ref missing from --base
  - a sourceRef naming no GitRepository; a dependsOn naming no Kustomization, or a dependsOn cycle
  - a health check naming an object that no build produces
  - a HelmRelease whose valuesFrom Secret/ConfigMap (unless optional) or values key, or whose
    chart source, is not where helm-controller looks for it; values Helm cannot read (not a
    YAML mapping)
  - a unit applying custom resources whose CRDs another unit installs, or objects into a
    namespace another unit creates, without depending on it; a namespace no build creates;
    the same for the namespace a HelmRelease installs its chart into (spec.targetNamespace,
    unless its install creates it)
  - an object applied by two Flux units
  - a SOPS-encrypted Secret manifest applied by a unit without spec.decryption, which
    kustomize-controller refuses
  - a GitRepository URL Flux refuses (scp-style), or ssh without spec.secretRef
  - an object whose metadata the API server refuses (name, namespace, labels, annotations)
  - an HTTPRoute its Gateway would not accept (no listener of the parentRef's port or name, none
    taking routes from its namespace, none matching its hostnames), or whose backend in another
    namespace no ReferenceGrant permits (a Gateway no build produces is info)
  - an Envoy Gateway SecurityPolicy whose target or basic authentication Secret no build
    produces, or whose Secret in another namespace no ReferenceGrant permits
  - an HTTPS listener whose certificate Secret nothing provides (a build, a cert-manager
    Certificate, the cert-manager annotation for a listener with a hostname, or an existing
    Secret the config names) or, in another namespace, no ReferenceGrant permits; a
    cert-manager annotation naming an issuer no build produces, or under a cert-manager whose
    values (as helm-controller merges them) turn its Gateway API support off
  - a cert-manager whose Gateway API support is on, not ordered after the unit installing the
    Gateway API CRDs, without which it stops at start (no such unit is info)

Not checked: what the cluster does with the objects (schemas beyond metadata, admission, Helm
charts and their values beyond cert-manager's Gateway API support, controllers), postBuild substitution and images set on Flux
Kustomizations.

Exit status: 0 no findings, 1 findings, 2 bad input (a config, or --base not a git repository).

Examples:

    git clone --branch 2026.01 https://github.com/opencenter-cloud/openCenter-gitops-base.git ../base
    opencenter verify --base ../base
    opencenter verify --base ../base .k8s-dev-config.yaml -o json`
}

// Run verifies every config, clusters in parallel, reports in config order.
func (c *VerifyCmd) Run(s *Streams) error {
	if err := c.resolve(c.Configs); err != nil {
		return err
	}
	files, err := configFiles(c.Repo, c.Configs)
	if err != nil {
		return err
	}
	if err := checkCheckout(c.Base); err != nil {
		return badInput(err)
	}
	tables := simTables{providers: providers(), indexed: indexedCommits()}
	var sim fluxsim.Simulator
	results := make(results, len(files))
	keys := &sops.Keyring{} // the keys file read once
	parallel(len(files), func(i int) { c.verifyOne(&sim, tables, keys, files[i], &results[i]) })
	return results.print(s, "verify", c.Output, s.Quiet, nil, exitOK)
}

// checkCheckout makes sure dir is a git repository with commits.
func checkCheckout(dir string) error {
	if info, err := os.Stat(dir); err != nil {
		return fmt.Errorf("--base %s: %w", dir, errors.Unwrap(err))
	} else if !info.IsDir() {
		return fmt.Errorf("--base %s: not a directory", dir)
	}
	if _, err := gitrepo.Resolve(dir, "HEAD"); err != nil {
		return fmt.Errorf("--base %s: not a git repository with commits (a checkout or bare clone of the base repository)", dir)
	}
	return nil
}

// simTables are what every cluster's simulation takes from the tables.
type simTables struct {
	providers map[string][]string
	indexed   map[string]string
}

// indexedCommits are the commits of the base releases the tables index,
// by tag or branch.
func indexedCommits() map[string]string {
	m := map[string]string{}
	for _, r := range generated.BaseReleases {
		m[r.Ref] = r.Commit
	}
	return m
}

// providers maps API groups to the Flux units that install their CRDs,
// from the tables (charts install CRDs that no offline build shows).
func providers() map[string][]string {
	m := map[string][]string{}
	for _, u := range generated.Units {
		for _, fu := range u.FluxUnits {
			for _, g := range fu.Provides {
				m[g] = append(m[g], fu.Name)
			}
		}
	}
	return m
}

// verifyOne loads and renders one config in memory and simulates Flux on it.
func (c *VerifyCmd) verifyOne(sim *fluxsim.Simulator, tables simTables, keys *sops.Keyring, name string, r *result) {
	r.rep.Config = name
	f, err := config.Load(name, config.LoadOptions{AllowLocked: true, Keys: keys})
	if err != nil {
		r.problems(diag.AsList(name, err), exitBadInput)
		return
	}
	// Plaintext secrets stay in memory: the simulation needs the files, and
	// nothing it prints carries a value.
	pl, tree, err := renderedTree(c.Repo, f, plan.Options{AllowPlaintextSecrets: true, Repo: c.Repo, PolicyRecipients: policyRecipients(name)})
	if err != nil {
		planFailed(r, name, err)
		return
	}
	r.rep.Cluster, r.rep.Overlay = pl.Cluster, pl.Overlay

	gitops := f.Config.OpenCenter.GitOps
	rep := sim.Run(fluxsim.Cluster{
		Name: pl.Cluster,
		URL:  gitops.Repository.URL,
		Path: pl.Overlay,
		Repos: []fluxsim.Repo{
			{URL: gitops.Repository.URL, Tree: tree},
			{URL: gitops.BaseRepo.URL, Dir: c.Base, Indexed: tables.indexed},
		},
		Providers:              tables.providers,
		ClusterScoped:          catalog.ClusterScoped,
		ExistingSecrets:        plan.ExistingSecrets(pl, f.Config),
		ExistingClusterIssuers: plan.ExistingClusterIssuers(pl, f.Config),
	})
	for _, x := range rep.Findings {
		fmt.Fprintln(&r.out, x)
		r.rep.Findings = append(r.rep.Findings, findingJSON{x.Unit, x.File, x.Message})
	}
	for _, x := range rep.Info {
		fmt.Fprintln(&r.out, "info:", x)
		r.rep.Info = append(r.rep.Info, findingJSON{x.Unit, x.File, x.Message})
	}
	r.rep.Summary = rep.Summary()
	fmt.Fprintln(&r.out, r.rep.Summary)
	if len(rep.Findings) > 0 {
		r.code = exitFindings
	}
}

// renderedTree renders config f in memory and returns the plan and the
// tree Flux would read at the overlay, keyed by path in the repository:
// the rendered files, the user's local/ directories, and a stand-in for
// flux-system/.
func renderedTree(repo string, f *config.File, opts plan.Options) (*plan.Plan, fluxbuild.Tree, error) {
	pl, err := plan.Build(f, opts)
	if err != nil {
		return nil, nil, err
	}
	tree := fluxbuild.Tree{}
	for _, pf := range pl.Files {
		tree[pl.Overlay+"/"+pf.Path] = pf.Data
	}
	// The user's local/ directories are part of what Flux applies.
	local, err := overlay.LocalFiles(repo, &pl.Tree)
	if err != nil {
		return nil, nil, err
	}
	for p, data := range local {
		tree[p] = data
	}
	// flux bootstrap owns flux-system/: the Flux controllers and its own
	// sync objects, which the simulation starts from.
	tree[pl.Overlay+"/flux-system/kustomization.yaml"] = emptyFluxSystem()
	return pl, tree, nil
}
