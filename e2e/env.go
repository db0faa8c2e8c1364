package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/gitrepo"
	"github.com/opencenter-dev/opencenter/internal/standinbase"
)

// Env is the whole run: the harness, the git server with the base
// repository, the chart repositories behind the proxy.
type Env struct {
	Harness
	// Repo is the project's checkout (testdata, descriptors, tools/e2e).
	Repo string
	// Base says where the base repository came from.
	Base     string
	BaseBare string
	Git      *GitServer
	Charts   *ChartRepos
	proxy    *Proxy
	KeyFile  string
	IDs      []age.Identity
	FluxCRDs [][]byte

	mu    sync.Mutex
	notes []string
	// charts serializes ServeCharts, which clusters run side by side call.
	charts sync.Mutex
	added  map[string]bool
}

// Note records something the report must say (a CRD that is not the
// chart's own, a stand-in decision), once.
func (e *Env) Note(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.Contains(e.notes, s) {
		e.notes = append(e.notes, s)
	}
}

// Notes returns the notes, sorted.
func (e *Env) Notes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := slices.Clone(e.notes)
	slices.Sort(out)
	return out
}

// Setup prepares everything the clusters share. base is a checkout of the
// base repository, or "" for the stand-in synthesized from the project's
// indexes of it.
func Setup(repo, bin, out, base string) (*Env, error) {
	if err := os.RemoveAll(out); err != nil {
		return nil, err
	}
	e := &Env{Repo: repo, added: map[string]bool{}}
	e.Bin, e.Work, e.Logs = bin, filepath.Join(out, "work"), filepath.Join(out, "logs")
	for _, d := range []string{e.Work, e.Logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	var err error
	if e.CA, err = NewCA(); err != nil {
		return nil, err
	}
	e.CAFile = filepath.Join(e.Work, "ca.crt")
	if err := os.WriteFile(e.CAFile, e.CA.CertPEM, 0o644); err != nil {
		return nil, err
	}
	if e.Admin, err = e.CA.Client("opencenter-e2e", "system:masters"); err != nil {
		return nil, err
	}
	e.KeyFile = filepath.Join(repo, "testdata", "keys", "fixture.TEST-ONLY.agekey")
	kf, err := os.Open(e.KeyFile)
	if err != nil {
		return nil, err
	}
	e.IDs, err = age.ParseIdentities(kf)
	kf.Close()
	if err != nil {
		return nil, err
	}

	if e.Git, err = NewGitServer(filepath.Join(e.Work, "git"), e.CA, filepath.Join(e.Logs, "git-server.log")); err != nil {
		return nil, err
	}
	if e.BaseBare, err = e.Git.Bare(baseOwner, baseName); err != nil {
		return nil, err
	}
	if base != "" {
		e.Base = "checkout " + base
		if err := importBase(base, e.BaseBare); err != nil {
			return nil, err
		}
	} else {
		e.Base = "stand-in synthesized from descriptors/base-index"
		indexes, err := standinbase.LoadIndexes(filepath.Join(repo, "descriptors", "base-index"))
		if err != nil {
			return nil, err
		}
		if err := synthesizeBase(indexes, e.Work, e.BaseBare); err != nil {
			return nil, err
		}
	}

	proxyLog, err := os.OpenFile(filepath.Join(e.Logs, "chart-proxy.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	e.Charts = NewChartRepos(proxyLog)
	if e.proxy, err = NewProxy(e.CA, e.Git.handler, e.Charts, proxyLog); err != nil {
		return nil, err
	}
	e.Proxy = e.proxy.Addr
	if e.FluxCRDs, err = FluxCRDs(repo); err != nil {
		return nil, err
	}
	return e, nil
}

// Close stops the servers.
func (e *Env) Close() {
	if e.proxy != nil {
		e.proxy.Close()
	}
	if e.Git != nil {
		e.Git.Close()
	}
}

// baseTree reads the base repository at a tag or branch.
func (e *Env) baseTree(ref string) (map[string][]byte, error) {
	s, err := gitrepo.Read(e.BaseBare, ref)
	if err != nil {
		return nil, err
	}
	return s.Files, nil
}

// ServeCharts makes the stand-in of every chart that HelmReleases in trees
// install: from the HelmRepository they name (by name, among the trees'
// HelmRepositories), or from a GitRepository's tree, which is then served
// as a stand-in repository of its own.
func (e *Env) ServeCharts(trees ...map[string][]byte) error {
	e.charts.Lock()
	defer e.charts.Unlock()
	var all []Manifest
	for _, t := range trees {
		all = append(all, manifests(t)...)
	}
	repos := ofKind(all, "source.toolkit.fluxcd.io", "HelmRepository")
	gitRepos := ofKind(all, "source.toolkit.fluxcd.io", "GitRepository")
	gitCharts := map[string]map[string][]byte{} // repo URL + "#" + branch -> files
	for _, hr := range ofKind(all, "helm.toolkit.fluxcd.io", "HelmRelease") {
		chart := str(hr.Obj, "spec", "chart", "spec", "chart")
		version := str(hr.Obj, "spec", "chart", "spec", "version")
		kind := str(hr.Obj, "spec", "chart", "spec", "sourceRef", "kind")
		src := str(hr.Obj, "spec", "chart", "spec", "sourceRef", "name")
		if chart == "" {
			return fmt.Errorf("%s: HelmRelease %s: no spec.chart.spec.chart (a chartRef): the harness makes no stand-in for it", hr.File, str(hr.Obj, "metadata", "name"))
		}
		switch kind {
		case "HelmRepository":
			found := false
			for _, r := range repos {
				if str(r.Obj, "metadata", "name") != src {
					continue
				}
				found = true
				u := str(r.Obj, "spec", "url")
				key := u + " " + chart + " " + version
				if e.added[key] {
					continue
				}
				c := &Chart{Name: chart, Version: versionFor(version)}
				crds, notes, err := ChartCRDs(chart)
				if err != nil {
					return err
				}
				c.CRDs = crds
				for _, n := range notes {
					e.Note(n)
				}
				if err := e.Charts.Add(u, c); err != nil {
					return err
				}
				e.added[key] = true
			}
			if !found {
				return fmt.Errorf("%s: HelmRelease %s: no HelmRepository %s in the trees", hr.File, str(hr.Obj, "metadata", "name"), src)
			}
		case "GitRepository":
			for _, r := range gitRepos {
				if str(r.Obj, "metadata", "name") != src {
					continue
				}
				key := str(r.Obj, "spec", "url") + "#" + str(r.Obj, "spec", "ref", "branch")
				if gitCharts[key] == nil {
					gitCharts[key] = map[string][]byte{}
				}
				c := &Chart{Name: str(hr.Obj, "metadata", "name"), Version: versionFor(version)}
				files, err := c.files()
				if err != nil {
					return err
				}
				for p, data := range files {
					gitCharts[key][strings.Trim(strings.TrimPrefix(chart, "./"), "/")+"/"+p] = data
				}
			}
		default:
			return fmt.Errorf("%s: HelmRelease %s: chart source kind %q: the harness makes no stand-in for it", hr.File, str(hr.Obj, "metadata", "name"), kind)
		}
	}
	for key, files := range gitCharts {
		u, branch, _ := strings.Cut(key, "#")
		if branch == "" {
			branch = "main"
		}
		host, owner, name := repoPath(u)
		if host != "github.com" {
			return fmt.Errorf("chart repository %s: the proxy serves git repositories for github.com only", u)
		}
		if e.added[key] {
			continue
		}
		bare, err := e.Git.Bare(owner, name)
		if err != nil {
			return err
		}
		dir := filepath.Join(e.Work, "standin-repos", owner, name)
		files["README.md"] = []byte("A stand-in of " + u + " for opencenter's e2e harness: the charts HelmReleases install from it.\n")
		if err := writeTree(dir, files); err != nil {
			return err
		}
		if _, err := commitTree(dir, bare, "stand-in charts", "refs/heads/"+branch); err != nil {
			return err
		}
		e.added[key] = true
		e.Note(fmt.Sprintf("%s (branch %s) is served as a stand-in repository holding the charts HelmReleases install from it", u, branch))
	}
	return nil
}
