package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/configedit"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// Budgets of one cluster.
const (
	reconcileTimeout = 5 * time.Minute
	day2Timeout      = 3 * time.Minute
)

// Result is what one cluster's run found.
type Result struct {
	Cluster string
	// Kustomizations: Ready of Total; Exceptions with their reasons and
	// their state at the end.
	Ready, Total int
	Exceptions   []string
	// HelmReleases installed from their stand-in charts with the values the
	// overlay gives, of HelmReleases.
	Installed, HelmReleases int
	// Secrets the overlay has SOPS-encrypted that the cluster holds
	// decrypted, of Encrypted; config secret values found in the cluster's
	// Secrets, of ConfigValues.
	Decrypted, Encrypted      int
	ValuesFound, ConfigValues int
	// OrderChecked dependency edges (OrderByReady of them by Ready order only).
	OrderChecked, OrderByReady int
	// Day2 says what the day-2 step did.
	Day2 string
	// Verify is opencenter verify's summary line for the cluster, and its
	// findings: where it and the real controllers disagree is the point.
	Verify         string
	VerifyFindings []string
	// ModelDiffs are where what kustomize-controller applied (a
	// Kustomization's inventory) differs from what the project's model of
	// its build (package fluxbuild, which verify uses) makes of the same
	// artifact.
	ModelDiffs []string
	// InventoryCompared counts the inventory entries compared with fluxbuild.
	InventoryCompared int
	// FailedFirst are failures seen before an object was first Ready
	// (it then became Ready on a retry): see Recorder.failedFirst.
	FailedFirst []string
	// Failures are the assertions that failed.
	Failures []string
	Elapsed  time.Duration
}

func (r *Result) fail(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// clusterRun is the state of one cluster's run.
type clusterRun struct {
	e        *Env
	name     string
	config   string // the config's file name, at the root of dir
	dir      string // the cluster repository's work tree
	bare     string
	branch   string
	overlay  string // applications/overlays/<cluster>
	c        *Cluster
	rec      *Recorder
	res      *Result
	except   map[string]string // Kustomization name -> why it is not expected Ready
	logf     func(format string, args ...any)
	plainCfg []byte
}

// RunCluster renders one fixture config, serves it, reconciles it on a
// fresh cluster and checks the result; then the day-2 step.
func (e *Env) RunCluster(ctx context.Context, fixtureConfig string, logf func(string, ...any)) (res *Result, err error) {
	start := time.Now()
	base := filepath.Base(fixtureConfig)
	name := strings.TrimSuffix(strings.TrimPrefix(base, "."), "-config.yaml")
	r := &clusterRun{e: e, name: name, config: base, dir: filepath.Join(e.Work, name, "repo"),
		overlay: "applications/overlays/" + name, res: &Result{Cluster: name}, except: map[string]string{}, logf: logf}
	defer func() {
		r.res.Elapsed = time.Since(start)
		if r.c != nil {
			r.c.Stop()
		}
	}()
	if err := r.prepare(fixtureConfig); err != nil {
		return r.res, err
	}
	logf("%s: rendered and pushed in %s", name, time.Since(start).Round(time.Second))
	if r.c, err = e.StartCluster(ctx, name); err != nil {
		return r.res, err
	}
	if err := r.bootstrap(ctx); err != nil {
		return r.res, err
	}
	logf("%s: control plane and Flux up at %s", name, time.Since(start).Round(time.Second))
	if err := r.waitReconciled(ctx, reconcileTimeout, ""); err != nil {
		r.res.fail("%v", err)
	}
	logf("%s: reconciled at %s", name, time.Since(start).Round(time.Second))
	if err := r.check(ctx); err != nil {
		return r.res, err
	}
	if len(r.res.Failures) == 0 {
		if err := r.day2(ctx); err != nil {
			r.res.fail("day 2: %v", err)
		}
	} else {
		r.res.Day2 = "not run: the first reconciliation failed"
	}
	return r.res, nil
}

// prepare writes the cluster repository: the fixture config with its
// repository URLs pointed at the local git server, its render, and what
// flux bootstrap would commit in flux-system/; then the repositories the
// render names that the harness stands in for.
func (r *clusterRun) prepare(fixtureConfig string) error {
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(fixtureConfig)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	set := func(path []string, value string) error {
		out, _, err := configedit.Set(data, path, configedit.Quote(value))
		if err != nil {
			return err
		}
		data = out
		return nil
	}
	gitops := []string{"opencenter", "gitops"}
	cluster := r.localURL(str(doc, "opencenter", "gitops", "repository", "url"))
	_, owner, name := repoPath(cluster)
	if r.bare, err = r.e.Git.Bare(owner, name); err != nil {
		return err
	}
	if err := set(append(gitops, "repository", "url"), cluster); err != nil {
		return err
	}
	r.branch = str(doc, "opencenter", "gitops", "repository", "branch")
	if r.branch == "" {
		r.branch = "main"
	}
	if err := set(append(gitops, "base_repo", "url"), r.e.Git.RepoURL(baseOwner, baseName)); err != nil {
		return err
	}
	if u := str(doc, "opencenter", "gitops", "overlay_units", "customer_managed", "repository_url"); u != "" {
		if err := set(append(gitops, "overlay_units", "customer_managed", "repository_url"), r.localURL(u)); err != nil {
			return err
		}
	}
	for _, layer := range []string{"services", "managed_services"} {
		svcs, _ := field(doc, "opencenter", layer).(map[string]any)
		for svc := range svcs {
			if u := str(doc, "opencenter", layer, svc, "source", "repo"); u != "" {
				if err := set([]string{"opencenter", layer, svc, "source", "repo"}, r.localURL(u)); err != nil {
					return err
				}
			}
		}
	}
	if err := os.WriteFile(filepath.Join(r.dir, r.config), data, 0o600); err != nil {
		return err
	}
	sopsCfg, err := os.ReadFile(filepath.Join(filepath.Dir(fixtureConfig), ".sops.yaml"))
	if err == nil {
		if err := os.WriteFile(filepath.Join(r.dir, ".sops.yaml"), sopsCfg, 0o644); err != nil {
			return err
		}
	}
	if r.plainCfg, _, err = sops.Decrypt(data, r.e.IDs); err != nil {
		return fmt.Errorf("decrypt %s: %w", r.config, err)
	}
	if _, err := git(r.dir, "init", "--quiet", "--initial-branch="+r.branch); err != nil {
		return err
	}
	if err := r.render(); err != nil {
		return err
	}
	if err := r.writeBootstrap(); err != nil {
		return err
	}
	if _, err := commitTree(r.dir, r.bare, "render "+r.name, "refs/heads/"+r.branch); err != nil {
		return err
	}
	tree, err := readDir(r.dir)
	if err != nil {
		return err
	}
	trees := []map[string][]byte{tree}
	for _, ref := range r.baseRefs(tree) {
		t, err := r.e.baseTree(ref)
		if err != nil {
			return fmt.Errorf("base repository at %s: %w", ref, err)
		}
		trees = append(trees, t)
	}
	if err := r.e.ServeCharts(trees...); err != nil {
		return err
	}
	if err := r.customerRepos(tree); err != nil {
		return err
	}
	return r.exceptions(tree)
}

// localURL is where the harness serves a repository a config names: the
// base repository once for all clusters, any other under a folder of the
// cluster's own, so that clusters reconciled side by side do not share
// the repository the fixture's configs share.
func (r *clusterRun) localURL(u string) string {
	_, owner, name := repoPath(u)
	if owner == baseOwner && name == baseName {
		return r.e.Git.RepoURL(baseOwner, baseName)
	}
	return r.e.Git.RepoURL(r.name+"/"+owner, name)
}

// opencenter runs the opencenter binary in the cluster repository.
func (r *clusterRun) opencenter(args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(r.e.Bin, "opencenter"), args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "SOPS_AGE_KEY_FILE="+r.e.KeyFile, "SOPS_AGE_KEY=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	log := filepath.Join(r.e.Logs, r.name, "opencenter.log")
	_ = os.MkdirAll(filepath.Dir(log), 0o755)
	if f, ferr := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); ferr == nil {
		fmt.Fprintf(f, "$ opencenter %s\n%s\n", strings.Join(args, " "), out.Bytes())
		f.Close()
	}
	if err != nil {
		return out.Bytes(), fmt.Errorf("opencenter %s: %w\n%s", strings.Join(args, " "), err, out.Bytes())
	}
	return out.Bytes(), nil
}

func (r *clusterRun) render() error {
	_, err := r.opencenter("render", "--repo", r.dir, r.config)
	return err
}

// writeBootstrap writes flux-system/ as flux bootstrap git would: its
// components (here the Flux CRDs and the namespace only: the controllers
// run outside the cluster) and the sync objects pointing at the overlay.
func (r *clusterRun) writeBootstrap() error {
	dir := filepath.Join(r.dir, filepath.FromSlash(r.overlay), "flux-system")
	var comp bytes.Buffer
	comp.WriteString("# What flux bootstrap installs, less the controllers' Deployments (the e2e\n# harness runs them as processes): the namespace and the Flux CRDs.\n")
	comp.WriteString("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: flux-system\n")
	for _, crd := range r.e.FluxCRDs {
		comp.WriteString("---\n")
		comp.Write(bytes.TrimPrefix(crd, []byte("---\n")))
	}
	sync := r.syncObjects()
	var syncYAML bytes.Buffer
	for i, o := range sync {
		if i > 0 {
			syncYAML.WriteString("---\n")
		}
		b, err := sigsyaml.Marshal(o)
		if err != nil {
			return err
		}
		syncYAML.Write(b)
	}
	return writeTree(dir, map[string][]byte{
		"gotk-components.yaml": comp.Bytes(),
		"gotk-sync.yaml":       syncYAML.Bytes(),
		"kustomization.yaml":   []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- gotk-components.yaml\n- gotk-sync.yaml\n"),
	})
}

// syncObjects are gotk-sync.yaml's GitRepository and Kustomization.
func (r *clusterRun) syncObjects() []Obj {
	md := map[string]any{"name": "flux-system", "namespace": "flux-system"}
	return []Obj{
		{"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "GitRepository", "metadata": md,
			"spec": map[string]any{"interval": "1m0s", "ref": map[string]any{"branch": r.branch},
				"secretRef": map[string]any{"name": "flux-system"}, "url": r.clusterURL()}},
		{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization", "metadata": md,
			"spec": map[string]any{"interval": "10m0s", "path": "./" + r.overlay, "prune": true,
				"sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"}}},
	}
}

func (r *clusterRun) clusterURL() string {
	rel, _ := filepath.Rel(r.e.Git.Root, r.bare)
	owner, name := filepath.Split(filepath.ToSlash(rel))
	return r.e.Git.RepoURL(strings.Trim(owner, "/"), strings.TrimSuffix(name, ".git"))
}

// baseRefs are the refs of the base repository the render's GitRepositories name.
func (r *clusterRun) baseRefs(tree map[string][]byte) []string {
	baseURL := r.e.Git.RepoURL(baseOwner, baseName)
	var refs []string
	for _, m := range ofKind(manifests(tree), "source.toolkit.fluxcd.io", "GitRepository") {
		if str(m.Obj, "spec", "url") != baseURL {
			continue
		}
		ref := str(m.Obj, "spec", "ref", "tag")
		if ref == "" {
			ref = str(m.Obj, "spec", "ref", "branch")
		}
		if ref != "" && !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	slices.Sort(refs)
	return refs
}

// customerRepos serves the customer repositories the overlay's
// GitRepositories name (neither the cluster's nor the base): at each path
// a Kustomization builds from one, a kustomization with one ConfigMap.
func (r *clusterRun) customerRepos(tree map[string][]byte) error {
	all := manifests(tree)
	for _, g := range ofKind(all, "source.toolkit.fluxcd.io", "GitRepository") {
		u := str(g.Obj, "spec", "url")
		if u == r.clusterURL() || u == r.e.Git.RepoURL(baseOwner, baseName) || !strings.HasPrefix(u, r.e.Git.URL+"/") {
			continue
		}
		_, owner, name := repoPath(u)
		branch := str(g.Obj, "spec", "ref", "branch")
		if branch == "" {
			branch = "main"
		}
		files := map[string][]byte{"README.md": []byte("A stand-in customer repository for opencenter's e2e harness.\n")}
		for _, k := range ofKind(all, "kustomize.toolkit.fluxcd.io", "Kustomization") {
			if str(k.Obj, "spec", "sourceRef", "name") != str(g.Obj, "metadata", "name") {
				continue
			}
			p := strings.Trim(str(k.Obj, "spec", "path"), "./")
			unit := str(k.Obj, "metadata", "name")
			files[p+"/kustomization.yaml"] = []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- configmap.yaml\n")
			files[p+"/configmap.yaml"] = fmt.Appendf(nil, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: e2e-%s-%s\n  namespace: default\ndata:\n  path: %s\n", r.name, unit, p)
		}
		bare, err := r.e.Git.Bare(owner, name)
		if err != nil {
			return err
		}
		dir := filepath.Join(r.e.Work, r.name, "customer-"+name)
		if err := writeTree(dir, files); err != nil {
			return err
		}
		if _, err := commitTree(dir, bare, "stand-in customer repository", "refs/heads/"+branch); err != nil {
			return err
		}
	}
	return nil
}

// verifyRemote matches verify's info line for a remote resource.
var verifyRemote = regexp.MustCompile(`^info: ([^:]+): ([^:]+): ([^:]+): remote resource (\S+) not checked offline$`)

// exceptions lists the Kustomizations not expected Ready, each with why:
// those verify lists with remote resources (not checkable offline: the
// remote fetch fails here too), those whose health checks name workloads
// (nothing runs a Pod: no kubelet, no scheduler, no controller-manager),
// and those that depend on one of them.
func (r *clusterRun) exceptions(tree map[string][]byte) error {
	// verify exits 1 when it has findings: they are reported, and the real
	// controllers have the last word.
	out, err := r.opencenter("verify", "--repo", r.dir, "--base", r.e.BaseBare, r.config)
	if ee := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := verifyRemote.FindStringSubmatch(line); m != nil && m[1] == r.name {
			if _, ok := r.except[m[2]]; !ok {
				r.except[m[2]] = "verify lists its remote resource " + m[4] + " as not checkable offline; fetching it fails offline"
			}
		}
		if strings.HasPrefix(line, r.name+": ") {
			if strings.Contains(line, " Flux units built ") || strings.Contains(line, " Flux unit built ") {
				r.res.Verify = line
			} else {
				r.res.VerifyFindings = append(r.res.VerifyFindings, line)
			}
		}
	}
	workloads := []string{"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "Pod", "PersistentVolumeClaim"}
	ks := ofKind(manifests(tree), "kustomize.toolkit.fluxcd.io", "Kustomization")
	for _, k := range ks {
		hcs, _ := field(k.Obj, "spec", "healthChecks").([]any)
		for _, hc := range hcs {
			m, _ := hc.(map[string]any)
			if kind, _ := m["kind"].(string); slices.Contains(workloads, kind) {
				r.except[str(k.Obj, "metadata", "name")] = fmt.Sprintf("its health check waits for %s %s, which cannot become ready without a kubelet and a scheduler", kind, m["name"])
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, k := range ks {
			n := str(k.Obj, "metadata", "name")
			if _, ok := r.except[n]; ok {
				continue
			}
			deps, _ := field(k.Obj, "spec", "dependsOn").([]any)
			for _, d := range deps {
				dn := str(d.(map[string]any), "name")
				if _, ok := r.except[dn]; ok {
					r.except[n] = "depends on " + dn + ", an exception"
					changed = true
					break
				}
			}
		}
	}
	return nil
}

// bootstrap installs what flux bootstrap installs before the first sync
// (the CRDs, the flux-system namespace and its git credentials, the sync
// objects) and the sops-age Secret a platform team adds, then starts the
// controllers.
func (r *clusterRun) bootstrap(ctx context.Context) error {
	k := r.c.Kube
	for _, crd := range r.e.FluxCRDs {
		var o Obj
		if err := sigsyaml.Unmarshal(crd, &o); err != nil {
			return err
		}
		if err := k.Apply(ctx, o); err != nil {
			return err
		}
	}
	if err := waitFor(30*time.Second, 200*time.Millisecond, "Flux CRDs established", func() error {
		_, err := k.List(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "")
		if err != nil {
			return err
		}
		_, err = k.List(ctx, "helm.toolkit.fluxcd.io/v2", "HelmRelease", "")
		return err
	}); err != nil {
		return err
	}
	key, err := os.ReadFile(r.e.KeyFile)
	if err != nil {
		return err
	}
	objs := []Obj{
		{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "flux-system"}},
		// flux bootstrap git --token-auth: the git server takes any credentials.
		secret("flux-system", "flux-system", map[string]string{"username": "git", "password": "e2e"}),
		secret("flux-system", "sops-age", map[string]string{"age.agekey": string(key)}),
	}
	if err := r.customerSecrets(&objs); err != nil {
		return err
	}
	objs = append(objs, r.syncObjects()...)
	rec, err := Record(ctx, k)
	if err != nil {
		return err
	}
	r.rec = rec
	for _, o := range objs {
		if err := k.Apply(ctx, o); err != nil {
			return err
		}
	}
	return r.e.StartFlux(ctx, r.c)
}

// customerSecrets adds the credentials Secret of a customer repository
// that the overlay names but does not write (flux create secret git).
func (r *clusterRun) customerSecrets(objs *[]Obj) error {
	tree, err := readDir(filepath.Join(r.dir, filepath.FromSlash(r.overlay)))
	if err != nil {
		return err
	}
	all := manifests(tree)
	written := map[string]bool{}
	for _, s := range all {
		if str(s.Obj, "kind") == "Secret" {
			written[str(s.Obj, "metadata", "name")] = true
		}
	}
	for _, g := range ofKind(all, "source.toolkit.fluxcd.io", "GitRepository") {
		ref := str(g.Obj, "spec", "secretRef", "name")
		if ref == "" || ref == "flux-system" || written[ref] {
			continue
		}
		*objs = append(*objs, secret(str(g.Obj, "metadata", "namespace"), ref, map[string]string{"username": "git", "password": "e2e"}))
	}
	return nil
}

func secret(ns, name string, data map[string]string) Obj {
	d := map[string]any{}
	for k, v := range data {
		d[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return Obj{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": name, "namespace": ns}, "type": "Opaque", "data": d}
}

// state is a Kustomization's or HelmRelease's Ready condition, briefly.
func state(o Obj) string {
	s, reason, msg := condition(o, "Ready")
	if s == "" {
		return "no Ready condition yet"
	}
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return fmt.Sprintf("Ready=%s %s: %s", s, reason, msg)
}

// waitReconciled waits until every Kustomization the overlay defines
// exists and, except the exceptions, is Ready at the revision of the
// cluster repository's last commit (revision "" for any), and every
// HelmRelease outside the exceptions is Ready.
func (r *clusterRun) waitReconciled(ctx context.Context, timeout time.Duration, revision string) error {
	want, err := r.definedUnits()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	lastLog := time.Now()
	// failing is when each object was first seen failing as it is now: a
	// failure that lasts settleFailure is not transient, and waiting longer
	// only makes a failed run slow.
	failing := map[string]time.Time{}
	const settleFailure = 90 * time.Second
	for {
		if err := r.c.Crashed(); err != nil {
			return err
		}
		ks, err := r.c.Kube.List(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "")
		if err != nil {
			return err
		}
		hrs, err := r.c.Kube.List(ctx, "helm.toolkit.fluxcd.io/v2", "HelmRelease", "")
		if err != nil {
			return err
		}
		byName := map[string]Obj{}
		for _, k := range ks {
			byName[str(k, "metadata", "name")] = k
		}
		var pending []string
		for _, n := range want {
			if _, ok := r.except[n]; ok {
				continue
			}
			k, ok := byName[n]
			switch {
			case !ok:
				pending = append(pending, n+": not applied yet")
			case !isReady(k):
				pending = append(pending, n+": "+state(k))
			case revision != "" && str(k, "spec", "sourceRef", "name") == "flux-system" && !strings.HasSuffix(str(k, "status", "lastAppliedRevision"), revision):
				pending = append(pending, n+": at "+str(k, "status", "lastAppliedRevision")+", not "+revision)
			}
		}
		for _, h := range hrs {
			if unit := str(h, "metadata", "labels", "kustomize.toolkit.fluxcd.io/name"); r.except[unit] != "" {
				continue
			}
			if !isReady(h) {
				pending = append(pending, "HelmRelease "+str(h, "metadata", "namespace")+"/"+str(h, "metadata", "name")+": "+state(h))
			}
		}
		if len(pending) == 0 {
			return nil
		}
		var settled []string
		for _, p := range pending {
			if !hardFailure.MatchString(p) {
				continue
			}
			if _, ok := failing[p]; !ok {
				failing[p] = time.Now()
			}
			if time.Since(failing[p]) > settleFailure {
				settled = append(settled, p)
			}
		}
		if len(settled) > 0 {
			sort.Strings(pending)
			return fmt.Errorf("failing for more than %s:\n  %s\npending then:\n  %s", settleFailure, strings.Join(settled, "\n  "), strings.Join(pending, "\n  "))
		}
		if time.Now().After(deadline) {
			sort.Strings(pending)
			return fmt.Errorf("not reconciled after %s:\n  %s", timeout, strings.Join(pending, "\n  "))
		}
		if time.Since(lastLog) > 30*time.Second {
			r.logf("%s: %d pending, e.g. %s", r.name, len(pending), pending[0])
			lastLog = time.Now()
		}
		time.Sleep(2 * time.Second)
	}
}

// hardFailure matches the states that do not clear by waiting.
var hardFailure = regexp.MustCompile(`Ready=False (BuildFailed|ReconciliationFailed|InstallFailed|UpgradeFailed|ArtifactFailed|ChartPullError|ValuesError|RetriesExceeded|InvalidChartReference)`)

func isReady(o Obj) bool {
	s, _, _ := condition(o, "Ready")
	return s == "True"
}

// definedUnits are the Kustomizations the cluster repository defines
// (flux-system's included), sorted.
func (r *clusterRun) definedUnits() ([]string, error) {
	tree, err := readDir(filepath.Join(r.dir, filepath.FromSlash(r.overlay)))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range ofKind(manifests(tree), "kustomize.toolkit.fluxcd.io", "Kustomization") {
		out = append(out, str(k.Obj, "metadata", "name"))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
