package fluxsim

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
	"k8s.io/apimachinery/pkg/types"
)

const (
	baseURL    = "https://example.com/org/base.git"
	clusterURL = "ssh://git@example.com/org/cluster.git"
	overlay    = "clusters/dev"
)

// baseRepo makes a git repository of testdata/base tagged 2026.01, with
// testdata/later committed after the tag on main.
func baseRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitrepotest.Git(t, dir, "init", "-q", "-b", "main")
	gitrepotest.CopyDir(t, filepath.Join("testdata", "base"), dir)
	gitrepotest.Git(t, dir, "add", ".")
	gitrepotest.Git(t, dir, "commit", "-q", "-m", "base")
	gitrepotest.Git(t, dir, "tag", "2026.01")
	gitrepotest.CopyDir(t, filepath.Join("testdata", "later"), dir)
	gitrepotest.Git(t, dir, "add", ".")
	gitrepotest.Git(t, dir, "commit", "-q", "-m", "later")
	return dir
}

// clusterTree reads testdata/cluster, the cluster repository.
func clusterTree(t *testing.T) fluxbuild.Tree {
	t.Helper()
	tree := fluxbuild.Tree{}
	root := filepath.Join("testdata", "cluster")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		tree[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// addUnit writes a Flux Kustomization into the overlay's fluxcd aggregate.
func addUnit(tree fluxbuild.Tree, name, spec string) {
	tree[overlay+"/fluxcd/"+name+".yaml"] = []byte(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ` + name + `
  namespace: flux-system
spec:
  interval: 15m
  prune: true
` + spec)
	k := overlay + "/fluxcd/kustomization.yaml"
	tree[k] = append(tree[k], "  - "+name+".yaml\n"...)
}

// replace edits one file of the tree, failing when old is not in it.
func replace(t *testing.T, tree fluxbuild.Tree, p, old, new string) {
	t.Helper()
	if !strings.Contains(string(tree[p]), old) {
		t.Fatalf("%s has no %q", p, old)
	}
	tree[p] = []byte(strings.Replace(string(tree[p]), old, new, 1))
}

func simulate(t *testing.T, base string, tree fluxbuild.Tree, providers map[string][]string) *Report {
	t.Helper()
	return simulateCluster(t, base, tree, Cluster{Providers: providers})
}

// simulateCluster runs the simulation of cluster dev, its repository tree
// and the base checkout, with the rest of c.
func simulateCluster(t *testing.T, base string, tree fluxbuild.Tree, c Cluster) *Report {
	t.Helper()
	c.Name, c.URL, c.Path = "dev", clusterURL, overlay
	// The scp form of the cluster URL and a base URL without .git must
	// match what the GitRepositories say.
	c.Repos = []Repo{
		{URL: "git@example.com:org/cluster", Tree: tree},
		{URL: strings.TrimSuffix(baseURL, ".git"), Dir: base},
	}
	var s Simulator
	return s.Run(c)
}

func lines(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}

func TestClean(t *testing.T) {
	r := simulate(t, baseRepo(t), clusterTree(t), nil)
	if got := lines(r.Findings); len(got) != 0 {
		t.Errorf("findings:\n%s", strings.Join(got, "\n"))
	}
	if got := lines(r.Info); len(got) != 0 {
		t.Errorf("info:\n%s", strings.Join(got, "\n"))
	}
	// flux-system, sources, app-base and app-override; flux-system and base.
	if r.Units != 4 || r.Built != 4 || r.Sources != 2 || r.FromCheckout != 1 {
		t.Errorf("counts: %+v", r)
	}
	want := "dev: 4 of 4 Flux units built (0 not checked offline), 2 GitRepositories (1 from the base checkout, 0 not checked offline), 0 remote resources not checked offline, 0 findings"
	if got := r.Summary(); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
}

// TestGeneratedSecrets: app-base applies the Secret its secretGenerator
// makes without decryption, and that is no Secret manifest. The same unit
// applying a SOPS-encrypted Secret file fails, as kustomize-controller
// refuses it; a plaintext one applies, and is info.
func TestGeneratedSecrets(t *testing.T) {
	base := baseRepo(t)
	tree := clusterTree(t)
	replace(t, tree, overlay+"/fluxcd/app-override.yaml", "  decryption:\n    provider: sops\n    secretRef:\n      name: sops-age\n", "")
	r := simulate(t, base, tree, nil)
	want := []string{`dev: app-override: clusters/dev/app/admin-secret.yaml: Secret app/app-admin is SOPS-encrypted, and Flux applies it only with spec.decryption: without it the unit fails ("configuring decryption is required")`}
	if got := lines(r.Findings); !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	secret := overlay + "/app/admin-secret.yaml"
	tree[secret] = tree[secret][:strings.Index(string(tree[secret]), "sops:")]
	r = simulate(t, base, tree, nil)
	want = []string{"dev: app-override: clusters/dev/app/admin-secret.yaml: Secret app/app-admin is a plaintext manifest in git: anyone who can read the repository can read it"}
	if got := lines(r.Info); len(r.Findings) != 0 || !slices.Equal(got, want) {
		t.Errorf("a plaintext Secret: findings %v, info:\n%s\nwant\n%s", lines(r.Findings), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFindings(t *testing.T) {
	base := baseRepo(t)
	for _, tc := range []struct {
		name      string
		edit      func(t *testing.T, tree fluxbuild.Tree)
		providers map[string][]string
		want      []string
	}{{
		name: "missing path",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-base.yaml", "services/app", "services/nope")
		},
		want: []string{
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: spec.path ./applications/base/services/nope does not exist in GitRepository flux-system/base (https://example.com/org/base.git tag 2026.01)",
		},
	}, {
		name: "path only after the tag",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			addUnit(tree, "later", "  path: ./applications/base/services/later\n  sourceRef:\n    kind: GitRepository\n    name: base\n")
		},
		want: []string{
			"dev: later: clusters/dev/fluxcd/later.yaml: spec.path ./applications/base/services/later does not exist in GitRepository flux-system/base (https://example.com/org/base.git tag 2026.01)",
		},
	}, {
		name: "kustomize error",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/app/kustomization.yaml", "admin-secret.yaml", "admin-secrets.yaml")
		},
		want: []string{
			"dev: app-override: clusters/dev/fluxcd/app-override.yaml: kustomize build clusters/dev/app: accumulating resources: accumulation err='accumulating resources from 'admin-secrets.yaml': 'clusters/dev/app/admin-secrets.yaml' doesn't exist': must build at directory: not a valid directory: 'clusters/dev/app/admin-secrets.yaml' doesn't exist",
		},
	}, {
		name: "metadata the API server refuses",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/app/admin-secret.yaml", "  name: app-admin\n", "  name: app-admin\n  labels:\n    cost center: a b\n")
		},
		want: []string{
			"dev: app-override: clusters/dev/app/admin-secret.yaml: Secret app/app-admin: the API server refuses it: metadata.labels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
			"dev: app-override: clusters/dev/app/admin-secret.yaml: Secret app/app-admin: the API server refuses it: metadata.labels: Invalid value: \"cost center\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
		},
	}, {
		name: "ref missing from the base",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/sources/base.yaml", `tag: "2026.01"`, `tag: "2026.99"`)
		},
		want: []string{
			"dev: sources: clusters/dev/sources/base.yaml: GitRepository flux-system/base: tag 2026.99 is not in the checkout of https://example.com/org/base.git",
		},
	}, {
		// source-controller fetches a tag among tags and a branch among
		// branches: the base's main is no tag, and its 2026.01 no branch.
		name: "branch named as a tag",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/sources/base.yaml", `tag: "2026.01"`, `tag: main`)
		},
		want: []string{
			"dev: sources: clusters/dev/sources/base.yaml: GitRepository flux-system/base: tag main is not in the checkout of https://example.com/org/base.git",
		},
	}, {
		name: "tag named as a branch",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/sources/base.yaml", `tag: "2026.01"`, `branch: "2026.01"`)
		},
		want: []string{
			"dev: sources: clusters/dev/sources/base.yaml: GitRepository flux-system/base: branch 2026.01 is not in the checkout of https://example.com/org/base.git",
		},
	}, {
		name: "branch",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/sources/base.yaml", `tag: "2026.01"`, `branch: main`)
		},
		want: []string{},
	}, {
		name: "sourceRef names no GitRepository",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-base.yaml", "name: base", "name: bsae")
		},
		want: []string{
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: sourceRef GitRepository flux-system/bsae: no build produces it",
		},
	}, {
		name: "dependsOn names no Kustomization",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-base.yaml", "name: app-override", "name: app-ovrride")
		},
		want: []string{
			// The values' unit is not waited for either.
			"dev: app-base: applications/base/services/app/helmrelease.yaml: HelmRelease app/app: valuesFrom Secret app-values-override (optional) is applied by app-override, which app-base does not depend on: helm-controller installs the release before those values exist, then upgrades with them, and what the chart reads only at install (an initial password, volume claim templates) keeps the values of that first install",
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: dependsOn flux-system/app-ovrride: no Kustomization of that name",
		},
	}, {
		name: "dependsOn cycle",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-override.yaml", "    - name: sources\n", "    - name: sources\n    - name: app-base\n")
		},
		want: []string{
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: dependsOn cycle app-base -> app-override -> app-base: Flux waits forever",
		},
	}, {
		name: "namespace no build creates",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			tree[overlay+"/stray/cm.yaml"] = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: nowhere\n")
			addUnit(tree, "stray", "  path: ./clusters/dev/stray\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n")
		},
		want: []string{
			"dev: stray: clusters/dev/fluxcd/stray.yaml: applies ConfigMap nowhere/c, but no build creates Namespace nowhere",
		},
	}, {
		name: "namespace created by a unit not depended on",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-base.yaml", "    - name: app-override\n", "")
		},
		want: []string{
			"dev: app-base: applications/base/services/app/helmrelease.yaml: HelmRelease app/app: valuesFrom Secret app-values-override (optional) is applied by app-override, which app-base does not depend on: helm-controller installs the release before those values exist, then upgrades with them, and what the chart reads only at install (an initial password, volume claim templates) keeps the values of that first install",
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: applies HelmRepository app/charts, but app-override, which creates Namespace app, is not in its dependsOn (directly or transitively)",
		},
	}, {
		name: "health check names nothing built",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-base.yaml", "namespace: app\n", "namespace: flux-system\n")
		},
		want: []string{
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: healthChecks: HelmRelease flux-system/app (helm.toolkit.fluxcd.io/v2): no build produces it",
		},
	}, {
		name: "valuesFrom Secret not produced",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			addUnit(tree, "broken", "  path: ./applications/base/services/broken-values\n  sourceRef:\n    kind: GitRepository\n    name: base\n  dependsOn:\n    - name: app-base\n")
		},
		want: []string{
			"dev: broken: applications/base/services/broken-values/helmrelease.yaml: HelmRelease app/broken: valuesFrom Secret broken-values-base: no build produces it in namespace app",
		},
	}, {
		name: "valuesFrom key not generated",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/app/kustomization.yaml", "override.yaml=", "values.yaml=")
		},
		want: []string{
			"dev: app-base: applications/base/services/app/helmrelease.yaml: HelmRelease app/app: valuesFrom Secret app-values-override: no key override.yaml (clusters/dev/app/kustomization.yaml has values.yaml)",
		},
	}, {
		name: "values Helm cannot read",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/app/values/override.yaml", "replicas: 2\n", "- replicas\n")
		},
		want: []string{
			"dev: app-override: clusters/dev/app/kustomization.yaml: HelmRelease app/app: valuesFrom Secret app-values-override key override.yaml: Helm cannot read it as values (a YAML mapping): error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}",
		},
	}, {
		// helm-controller skips an optional reference it does not find and
		// installs; the values come with an upgrade, too late for what a
		// chart reads only at install.
		name: "optional values applied after the release",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/app/kustomization.yaml", "secretGenerator:\n  - name: app-values-override\n    files:\n      - override.yaml=values/override.yaml\n    options:\n      disableNameSuffixHash: true\n", "")
			tree[overlay+"/values/override.yaml"] = tree[overlay+"/app/values/override.yaml"]
			tree[overlay+"/values/kustomization.yaml"] = []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: app\nsecretGenerator:\n  - name: app-values-override\n    files:\n      - override.yaml\n    options:\n      disableNameSuffixHash: true\n")
			addUnit(tree, "values", "  path: ./clusters/dev/values\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: app-base\n")
		},
		want: []string{
			"dev: app-base: applications/base/services/app/helmrelease.yaml: HelmRelease app/app: valuesFrom Secret app-values-override (optional) is applied by values, which app-base does not depend on: helm-controller installs the release before those values exist, then upgrades with them, and what the chart reads only at install (an initial password, volume claim templates) keeps the values of that first install",
		},
	}, {
		// A required reference fails the install until the values come:
		// never, when their unit waits for the release's.
		name: "required values applied after the release",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			extraRelease(t, tree, "  valuesFrom:\n    - kind: ConfigMap\n      name: extra-values\n")
			tree[overlay+"/elsewhere/namespace.yaml"] = []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: elsewhere\n")
			tree[overlay+"/elsewhere/values.yaml"] = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra-values\n  namespace: app\ndata:\n  values.yaml: 'replicas: 1'\n")
			addUnit(tree, "elsewhere", "  path: ./clusters/dev/elsewhere\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: app-override\n")
			replace(t, tree, overlay+"/fluxcd/app-override.yaml", "    - name: sources\n", "    - name: sources\n    - name: elsewhere-ns\n")
			tree[overlay+"/elsewhere-ns/namespace.yaml"] = tree[overlay+"/elsewhere/namespace.yaml"]
			delete(tree, overlay+"/elsewhere/namespace.yaml")
			addUnit(tree, "elsewhere-ns", "  path: ./clusters/dev/elsewhere-ns\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n")
		},
		want: []string{
			"dev: app-override: clusters/dev/app/extra-release.yaml: HelmRelease app/extra: valuesFrom ConfigMap extra-values is applied by elsewhere, which app-override does not depend on: the install fails until those values exist, and never succeeds if elsewhere waits for this release",
		},
	}, {
		name: "values Secret manifest whose data is not base64",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/app/kustomization.yaml", "secretGenerator:\n  - name: app-values-override\n    files:\n      - override.yaml=values/override.yaml\n    options:\n      disableNameSuffixHash: true\n", "")
			replace(t, tree, overlay+"/app/kustomization.yaml", "  - admin-secret.yaml\n", "  - admin-secret.yaml\n  - values-secret.yaml\n")
			tree[overlay+"/app/values-secret.yaml"] = []byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-values-override\ndata:\n  override.yaml: 'replicas: 2'\n")
		},
		want: []string{
			"dev: app-override: clusters/dev/app/values-secret.yaml: HelmRelease app/app: valuesFrom Secret app-values-override: data.override.yaml is not base64: the API server refuses the Secret",
		},
	}, {
		name: "targetNamespace moves the HelmRelease away from its chart source",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/fluxcd/app-base.yaml", "targetNamespace: app", "targetNamespace: other")
		},
		want: []string{
			"dev: app-base: applications/base/services/app/helmrelease.yaml: HelmRelease other/app: chart sourceRef HelmRepository app/charts: no build puts it in namespace app (it is in other)",
			// The HelmRepository went to other too, which no build creates.
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: applies HelmRepository other/charts, but no build creates Namespace other",
			"dev: app-base: clusters/dev/fluxcd/app-base.yaml: healthChecks: HelmRelease app/app (helm.toolkit.fluxcd.io/v2): no build produces it",
		},
	}, {
		name: "chart source moved by targetNamespace",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			addUnit(tree, "moved", "  path: ./applications/base/services/moved\n  sourceRef:\n    kind: GitRepository\n    name: base\n  targetNamespace: app\n  dependsOn:\n    - name: app-base\n")
		},
		want: []string{
			"dev: moved: applications/base/services/moved/helmrelease.yaml: HelmRelease app/moved: chart sourceRef GitRepository flux-system/moved-chart: no build puts it in namespace flux-system (it is in app)",
		},
	}, {
		name: "CRD from a manifest, no dependsOn on its unit",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			addUnit(tree, "crds", "  path: ./applications/base/services/crds\n  sourceRef:\n    kind: GitRepository\n    name: base\n")
			tree[overlay+"/widgets/widget.yaml"] = []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: app\n")
			addUnit(tree, "widgets", "  path: ./clusters/dev/widgets\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: app-base\n")
		},
		want: []string{
			"dev: widgets: clusters/dev/fluxcd/widgets.yaml: applies Widget app/w (group example.com) but crds, which installs the CRDs of example.com, is not in its dependsOn (directly or transitively)",
		},
	}, {
		name: "CRD from the provider table, no dependsOn on its unit",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			tree[overlay+"/gadgets/gadget.yaml"] = []byte("apiVersion: gadgets.example.org/v1\nkind: Gadget\nmetadata:\n  name: g\n")
			addUnit(tree, "gadgets", "  path: ./clusters/dev/gadgets\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: sources\n")
			// Transitively after app-base is enough.
			tree[overlay+"/gadgets-late/gadget.yaml"] = []byte("apiVersion: gadgets.example.org/v1\nkind: Gadget\nmetadata:\n  name: late\n")
			tree[overlay+"/between/cm.yaml"] = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: between\n  namespace: app\n")
			addUnit(tree, "between", "  path: ./clusters/dev/between\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: app-base\n")
			addUnit(tree, "gadgets-late", "  path: ./clusters/dev/gadgets-late\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: between\n")
		},
		providers: map[string][]string{"gadgets.example.org": {"app-base", "not-in-this-cluster"}},
		want: []string{
			"dev: gadgets: clusters/dev/fluxcd/gadgets.yaml: applies Gadget g (group gadgets.example.org) but app-base, which installs the CRDs of gadgets.example.org, is not in its dependsOn (directly or transitively)",
		},
	}, {
		name: "one object, two owners",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			tree[overlay+"/dup/namespace.yaml"] = []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: app\n")
			addUnit(tree, "dup", "  path: ./clusters/dev/dup\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n")
		},
		want: []string{
			"dev: dup: clusters/dev/dup/namespace.yaml: Namespace app is also applied by app-override (clusters/dev/app/namespace.yaml): one Flux unit must own it",
		},
	}, {
		// The same copy, taken out of dup's build by a Flux patch, as
		// kustomize-controller applies spec.patches.
		name: "one object, the second copy patched away",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			tree[overlay+"/dup/namespace.yaml"] = []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: app\n")
			tree[overlay+"/dup/cm.yaml"] = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: app\n")
			addUnit(tree, "dup", "  path: ./clusters/dev/dup\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: app-override\n  patches:\n    - target:\n        kind: Namespace\n        name: app\n      patch: |\n        $patch: delete\n        apiVersion: v1\n        kind: Namespace\n        metadata:\n          name: app\n")
		},
		want: []string{},
	}, {
		// helm-controller installs a chart into spec.targetNamespace, and
		// fails where that namespace does not exist.
		name: "HelmRelease into a namespace no build creates",
		edit: func(t *testing.T, tree fluxbuild.Tree) { extraRelease(t, tree, "") },
		want: []string{
			"dev: app-override: clusters/dev/fluxcd/app-override.yaml: HelmRelease app/extra installs its chart into spec.targetNamespace, but no build creates Namespace elsewhere",
		},
	}, {
		name: "HelmRelease into a namespace its install creates",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			extraRelease(t, tree, "  install:\n    createNamespace: true\n")
		},
		want: []string{},
	}, {
		name: "HelmRelease into a namespace another unit creates, unordered",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			extraRelease(t, tree, "")
			tree[overlay+"/elsewhere/namespace.yaml"] = []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: elsewhere\n")
			addUnit(tree, "elsewhere", "  path: ./clusters/dev/elsewhere\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n")
		},
		want: []string{
			"dev: app-override: clusters/dev/fluxcd/app-override.yaml: HelmRelease app/extra installs its chart into spec.targetNamespace, but elsewhere, which creates Namespace elsewhere, is not in its dependsOn (directly or transitively)",
		},
	}, {
		name: "ssh GitRepository without secretRef",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/sources/base.yaml", baseURL, "ssh://git@example.com/org/base.git")
		},
		want: []string{
			"dev: sources: clusters/dev/sources/base.yaml: GitRepository flux-system/base: ssh URL ssh://git@example.com/org/base.git without spec.secretRef: Flux has no anonymous ssh and never fetches it",
		},
	}, {
		name: "scp-style GitRepository URL",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, overlay+"/sources/base.yaml", baseURL, "git@example.com:org/base.git")
		},
		want: []string{
			"dev: sources: clusters/dev/sources/base.yaml: GitRepository flux-system/base: url git@example.com:org/base.git: the API server refuses it (Flux takes http://, https:// and ssh:// URLs)",
		},
	}, {
		name: "include of a path the included repository lacks",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			tree[overlay+"/sources/config.yaml"] = []byte(includer("applications/base/services/nope"))
			replace(t, tree, overlay+"/sources/kustomization.yaml", "  - base.yaml\n", "  - base.yaml\n  - config.yaml\n")
			addUnit(tree, "included", "  path: ./clusters/dev/included/app\n  sourceRef:\n    kind: GitRepository\n    name: config\n  targetNamespace: app\n")
		},
		want: []string{
			"dev: sources: clusters/dev/sources/config.yaml: GitRepository flux-system/config: spec.include of flux-system/base: fromPath applications/base/services/nope does not exist in it",
		},
	}, {
		name: "include of a GitRepository no build produces",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			tree[overlay+"/sources/config.yaml"] = []byte(strings.Replace(includer("applications/base/services/app"), "name: base", "name: bsae", 1))
			replace(t, tree, overlay+"/sources/kustomization.yaml", "  - base.yaml\n", "  - base.yaml\n  - config.yaml\n")
			addUnit(tree, "included", "  path: ./clusters/dev/included/app\n  sourceRef:\n    kind: GitRepository\n    name: config\n")
		},
		want: []string{
			"dev: included: clusters/dev/fluxcd/included.yaml: sourceRef GitRepository flux-system/config: spec.include names GitRepository flux-system/bsae, which no build produces",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tree := clusterTree(t)
			tc.edit(t, tree)
			got := lines(simulate(t, base, tree, tc.providers).Findings)
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// extraRelease adds to app-override a HelmRelease of the base's chart that
// installs into the namespace elsewhere, with install settings.
func extraRelease(t *testing.T, tree fluxbuild.Tree, install string) {
	t.Helper()
	tree[overlay+"/app/extra-release.yaml"] = []byte(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: extra
spec:
  interval: 5m
  targetNamespace: elsewhere
` + install + `  chart:
    spec:
      chart: app
      version: 1.0.0
      sourceRef:
        kind: HelmRepository
        name: charts
        namespace: app
`)
	replace(t, tree, overlay+"/app/kustomization.yaml", "  - admin-secret.yaml\n", "  - admin-secret.yaml\n  - extra-release.yaml\n")
}

// includer is a GitRepository on the cluster repository that includes a
// path of the base as clusters/dev/included/app.
func includer(fromPath string) string {
	return `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: config
  namespace: flux-system
spec:
  interval: 15m
  url: ` + clusterURL + `
  secretRef:
    name: flux-system
  ref:
    branch: main
  include:
    - repository:
        name: base
      fromPath: ` + fromPath + `
      toPath: clusters/dev/included/app
`
}

// TestInclude: a Kustomization builds base content that its GitRepository
// includes into the cluster repository's tree.
func TestInclude(t *testing.T) {
	tree := clusterTree(t)
	tree[overlay+"/sources/config.yaml"] = []byte(includer("applications/base/services/remote"))
	replace(t, tree, overlay+"/sources/kustomization.yaml", "  - base.yaml\n", "  - base.yaml\n  - config.yaml\n")
	addUnit(tree, "included", "  path: ./clusters/dev/included/app\n  sourceRef:\n    kind: GitRepository\n    name: config\n  dependsOn:\n    - name: app-base\n")
	r := simulate(t, baseRepo(t), tree, nil)
	if len(r.Findings) != 0 || r.Built != r.Units || r.Units != 5 {
		t.Fatalf("findings %v, %d of %d built", lines(r.Findings), r.Built, r.Units)
	}
	// The included kustomization's remote resource is reported where it now is.
	want := []string{"dev: included: clusters/dev/included/app/kustomization.yaml: remote resource https://example.com/releases/v1/crds.yaml not checked offline"}
	if got := lines(r.Info); !slices.Equal(got, want) || r.Remote != 1 {
		t.Errorf("info %v (remote %d), want %v", got, r.Remote, want)
	}
}

// TestValuesIgnored: values after a second YAML document are info, not a
// finding: helm-controller installs the release without them.
func TestValuesIgnored(t *testing.T) {
	tree := clusterTree(t)
	replace(t, tree, overlay+"/app/values/override.yaml", "replicas: 2\n", "replicas: 2\n---\nimage:\n  tag: v2\n")
	r := simulate(t, baseRepo(t), tree, nil)
	if len(r.Findings) != 0 {
		t.Errorf("findings: %v", lines(r.Findings))
	}
	want := []string{"dev: app-override: clusters/dev/app/kustomization.yaml: HelmRelease app/app: valuesFrom Secret app-values-override key override.yaml: values (image) from its line 2 on are a second YAML document, which helm-controller ignores: it reads only the first"}
	if got := lines(r.Info); !slices.Equal(got, want) {
		t.Errorf("info:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNotChecked: remote resources and repositories without an offline copy
// are info, never findings; so are suspended units.
func TestNotChecked(t *testing.T) {
	tree := clusterTree(t)
	addUnit(tree, "remote", "  path: ./applications/base/services/remote\n  sourceRef:\n    kind: GitRepository\n    name: base\n  dependsOn:\n    - name: app-base\n")
	tree[overlay+"/sources/customer.yaml"] = []byte("apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: customer\n  namespace: flux-system\nspec:\n  interval: 15m\n  url: https://example.com/customer/apps.git\n  ref:\n    branch: main\n")
	// A chart source no Kustomization builds is fetched all the same.
	tree[overlay+"/sources/charts.yaml"] = []byte("apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: charts\n  namespace: flux-system\nspec:\n  interval: 15m\n  url: https://example.com/charts.git\n")
	replace(t, tree, overlay+"/sources/kustomization.yaml", "  - base.yaml\n", "  - base.yaml\n  - charts.yaml\n  - customer.yaml\n")
	addUnit(tree, "apps", "  path: ./apps/dev\n  sourceRef:\n    kind: GitRepository\n    name: customer\n  dependsOn:\n    - name: sources\n")
	addUnit(tree, "paused", "  suspend: true\n  path: ./nowhere\n  sourceRef:\n    kind: GitRepository\n    name: base\n")
	r := simulate(t, baseRepo(t), tree, nil)
	if len(r.Findings) != 0 {
		t.Errorf("findings: %v", lines(r.Findings))
	}
	want := []string{
		"dev: apps: clusters/dev/fluxcd/apps.yaml: not checked offline: GitRepository flux-system/customer (https://example.com/customer/apps.git) is neither the cluster repository nor the base",
		"dev: paused: clusters/dev/fluxcd/paused.yaml: suspended: not built",
		"dev: remote: applications/base/services/remote/kustomization.yaml: remote resource https://example.com/releases/v1/crds.yaml not checked offline",
		"dev: sources: clusters/dev/sources/charts.yaml: not checked offline: GitRepository flux-system/charts (https://example.com/charts.git) is neither the cluster repository nor the base",
	}
	if got := lines(r.Info); !slices.Equal(got, want) {
		t.Errorf("info:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Units != 7 || r.Built != 5 || r.Unchecked != 2 || r.Sources != 4 || r.SourcesUnchecked != 2 || r.Remote != 1 {
		t.Errorf("counts: %+v", r)
	}
}

func TestNormalizeURL(t *testing.T) {
	for _, u := range []string{
		"ssh://git@github.com/Org/Repo.git",
		"git@github.com:org/repo.git",
		"https://github.com/org/repo",
		"https://github.com/org/repo/",
		"ssh://git@github.com:22/org/repo",
	} {
		if got := NormalizeURL(u); got != "github.com/org/repo" {
			t.Errorf("NormalizeURL(%s) = %s", u, got)
		}
	}
	if NormalizeURL("https://github.com/org/other") == NormalizeURL("https://github.com/org/repo") {
		t.Error("two repositories compare equal")
	}
}

// TestManualSubscription: an OLM Subscription with Manual approval is
// info: OLM installs nothing until someone approves its InstallPlan. One
// with Automatic approval is nothing.
func TestManualSubscription(t *testing.T) {
	sub := "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: op\nspec:\n  name: some-operator\n  channel: stable\n  installPlanApproval: %s\n"
	for approval, want := range map[string][]string{
		"Manual":    {"dev: app-override: clusters/dev/app/subscription.yaml: Subscription app/op: installPlanApproval Manual: OLM installs operator some-operator only once someone approves its InstallPlan, the first one too"},
		"Automatic": {},
	} {
		tree := clusterTree(t)
		tree[overlay+"/app/subscription.yaml"] = []byte(fmt.Sprintf(sub, approval))
		replace(t, tree, overlay+"/app/kustomization.yaml", "  - admin-secret.yaml\n", "  - admin-secret.yaml\n  - subscription.yaml\n")
		r := simulate(t, baseRepo(t), tree, nil)
		if len(r.Findings) != 0 {
			t.Errorf("%s: findings: %v", approval, lines(r.Findings))
		}
		if got := lines(r.Info); !slices.Equal(got, want) {
			t.Errorf("%s: info:\n%s\nwant\n%s", approval, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestClusterScopedCustomKind: a custom resource of a cluster-scoped kind
// that kustomize gave a namespace (it cannot know the kind's scope) needs
// no Namespace: the API server ignores it. Without ClusterScoped, the
// simulation takes the kind for namespaced, as kustomize does.
func TestClusterScopedCustomKind(t *testing.T) {
	tree := clusterTree(t)
	tree[overlay+"/stray/widget.yaml"] = []byte("apiVersion: example.com/v1\nkind: ClusterWidget\nmetadata:\n  name: w\n")
	tree[overlay+"/stray/kustomization.yaml"] = []byte("namespace: nowhere\nresources:\n  - widget.yaml\n")
	addUnit(tree, "stray", "  path: ./clusters/dev/stray\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n")
	for _, scoped := range []func(string) bool{nil, func(k string) bool { return k == "ClusterWidget" }} {
		var s Simulator
		r := s.Run(Cluster{
			Name: "dev", URL: clusterURL, Path: overlay,
			Repos: []Repo{
				{URL: "git@example.com:org/cluster", Tree: tree},
				{URL: strings.TrimSuffix(baseURL, ".git"), Dir: baseRepo(t)},
			},
			ClusterScoped: scoped,
		})
		got := lines(r.Findings)
		if scoped == nil && (len(got) != 1 || !strings.Contains(got[0], "no build creates Namespace nowhere")) {
			t.Errorf("without ClusterScoped: %v", got)
		}
		if scoped != nil && len(got) != 0 {
			t.Errorf("with ClusterScoped: %v", got)
		}
	}
}

// TestIndexedCommit: a checkout whose ref is not at the commit opencenter
// indexed is noted once, as info; at that commit, nothing is said.
func TestIndexedCommit(t *testing.T) {
	base, tree := baseRepo(t), clusterTree(t)
	head := gitrepotest.Git(t, base, "rev-parse", "2026.01^{commit}")
	run := func(indexed string) *Report {
		var s Simulator
		return s.Run(Cluster{
			Name: "dev", URL: clusterURL, Path: overlay,
			Repos: []Repo{
				{URL: clusterURL, Tree: tree},
				{URL: baseURL, Dir: base, Indexed: map[string]string{"2026.01": indexed}},
			},
		})
	}
	if r := run(head); len(r.Info) != 0 || len(r.Findings) != 0 {
		t.Errorf("at the indexed commit: findings %v, info %v", lines(r.Findings), lines(r.Info))
	}
	r := run(strings.Repeat("0", 40))
	want := []string{"dev: base index: " + base + ": tag 2026.01 is at " + head[:12] + " here, but opencenter's index of it is at 000000000000: the render checked the base's paths and objects against the index; re-extract it (gen/baseindex) if the base has moved"}
	if got := lines(r.Info); len(r.Findings) != 0 || !slices.Equal(got, want) {
		t.Errorf("findings %v, info:\n%s\nwant\n%s", lines(r.Findings), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExistingSecrets: a valuesFrom Secret that no build produces is no
// finding when the cluster has it outside the repository (the config names
// it), in the HelmRelease's namespace; the report says so as info.
func TestExistingSecrets(t *testing.T) {
	base := baseRepo(t)
	tree := clusterTree(t)
	addUnit(tree, "broken", "  path: ./applications/base/services/broken-values\n  sourceRef:\n    kind: GitRepository\n    name: base\n  dependsOn:\n    - name: app-base\n")
	for _, tc := range []struct {
		existing types.NamespacedName
		findings int
	}{
		{types.NamespacedName{Namespace: "app", Name: "broken-values-base"}, 0},
		{types.NamespacedName{Namespace: "elsewhere", Name: "broken-values-base"}, 1},
	} {
		r := simulateCluster(t, base, tree, Cluster{ExistingSecrets: []types.NamespacedName{tc.existing}})
		if len(r.Findings) != tc.findings {
			t.Errorf("existing %s: findings %v, want %d", tc.existing, lines(r.Findings), tc.findings)
		}
		const info = "dev: broken: applications/base/services/broken-values/helmrelease.yaml: HelmRelease app/broken: valuesFrom Secret broken-values-base: the config names it as existing outside the repository; the cluster must have it, with key values.yaml, before the release installs"
		if got := slices.Contains(lines(r.Info), info); got != (tc.findings == 0) {
			t.Errorf("existing %s: info %v, want %q %v", tc.existing, lines(r.Info), info, tc.findings == 0)
		}
	}
}

// TestApplied: the report lists every unit with what it applies, and why
// a unit did not build.
func TestApplied(t *testing.T) {
	base := baseRepo(t)
	tree := clusterTree(t)
	addUnit(tree, "broken", "  path: ./nowhere\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n")
	addUnit(tree, "elsewhere", "  path: ./\n  sourceRef:\n    kind: GitRepository\n    name: other\n")
	tree[overlay+"/fluxcd/other.yaml"] = []byte("apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: other\n  namespace: flux-system\nspec:\n  url: https://example.com/other.git\n  interval: 1m\n")
	tree[overlay+"/fluxcd/kustomization.yaml"] = append(tree[overlay+"/fluxcd/kustomization.yaml"], "  - other.yaml\n"...)
	r := simulate(t, base, tree, nil)
	got := map[string]string{}
	var names []string
	for _, u := range r.Applied {
		names = append(names, u.Name)
		var ids []string
		for _, o := range u.Objects {
			ids = append(ids, o.ID())
		}
		got[u.Name] = fmt.Sprintf("%s %q %s %v", u.State, u.Reason, u.Source, ids)
	}
	if !slices.IsSorted(names) || len(names) != 6 {
		t.Errorf("units %v: want 6, sorted", names)
	}
	for name, want := range map[string]string{
		"broken":    `failed "spec.path ./nowhere does not exist in GitRepository flux-system/flux-system (` + clusterURL + `)" ` + clusterURL + ` []`,
		"elsewhere": `not checked "not checked offline: GitRepository flux-system/other (https://example.com/other.git) is neither the cluster repository nor the base" https://example.com/other.git []`,
		"app-base":  `built "" ` + baseURL + ` [HelmRepository/app/charts HelmRelease/app/app Secret/app/app-values-base]`,
	} {
		if got[name] != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got[name], want)
		}
	}
}
