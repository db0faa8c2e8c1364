package baseindex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var files = map[string][]byte{
	"applications/base/services/demo/kustomization.yaml": []byte(`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [namespace.yaml, source.yaml, helmrelease.yaml, named.yaml, ../crds/secret.yaml, https://example.com/crds.yaml]
secretGenerator:
  - name: demo-values-base
    namespace: demo
    files: [values.yaml=values.yaml]
    options: {disableNameSuffixHash: true}
`),
	"applications/base/services/demo/values.yaml":    []byte("replicas: 1\n"),
	"applications/base/services/demo/namespace.yaml": []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n"),
	"applications/base/services/demo/source.yaml": []byte(`apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: demo, namespace: flux-system}
spec: {url: https://example.com/demo.git, interval: 1h}
`),
	"applications/base/services/demo/helmrelease.yaml": []byte(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: demo, namespace: demo}
spec:
  targetNamespace: apps
  chart:
    spec: {chart: demo, version: 1.2.3, sourceRef: {kind: GitRepository, name: demo, namespace: flux-system}}
  valuesFrom:
    - {kind: Secret, name: demo-values-base, valuesKey: values.yaml}
    - {kind: Secret, name: demo-values-override, valuesKey: override.yaml, optional: true}
`),
	"applications/base/services/demo/named.yaml": []byte(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: named, namespace: demo}
spec:
  releaseName: fixed
  chart:
    spec: {chart: demo, version: 1.2.3, sourceRef: {kind: GitRepository, name: demo, namespace: flux-system}}
`),
	"applications/base/services/crds/kustomization.yaml": []byte("resources: [crd.yaml, secret.yaml]\n"),
	"applications/base/services/crds/crd.yaml": []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.demo.example.com}
spec: {group: demo.example.com, names: {kind: Widget, plural: widgets}, scope: Namespaced, versions: []}
`),
	"applications/base/services/crds/secret.yaml":          []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: committed, namespace: demo}\n"),
	"applications/base/services/broken/kustomization.yaml": []byte("resources: [missing.yaml]\n"),
	"docs/kustomization.yaml":                              []byte("resources: [outside-the-index.yaml]\n"),
}

func TestExtract(t *testing.T) {
	x, err := Extract("https://example.com/base.git", "r1", strings.Repeat("a", 40), files)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Dirs) != 3 {
		t.Fatalf("dirs %v: want the three kustomization directories under %s", x.Dirs, Root)
	}
	d, ok := x.Dir("applications/base/services/demo")
	if !ok {
		t.Fatal("demo not indexed")
	}
	got := map[string]Object{}
	for _, o := range d.Objects {
		got[o.Kind+"/"+o.Name] = o
	}
	if g := got["GitRepository/demo"]; g.Namespace != "flux-system" {
		t.Errorf("source object: %+v", g)
	}
	if s := got["Secret/demo-values-base"]; !s.Generated || s.Namespace != "demo" || s.Home != "" {
		t.Errorf("generated values Secret: %+v", s)
	}
	// An object from another directory's file is that directory's too.
	for id, o := range got {
		if want := map[bool]string{true: "applications/base/services/crds"}[id == "Secret/committed"]; o.Home != want {
			t.Errorf("%s: home %q, want %q", id, o.Home, want)
		}
	}
	if len(d.HelmReleases) != 2 || d.HelmReleases[0].Source != (Ref{"GitRepository", "demo", "flux-system"}) ||
		len(d.HelmReleases[0].ValuesFrom) != 2 || !d.HelmReleases[0].ValuesFrom[1].Optional {
		t.Errorf("helm release: %+v", d.HelmReleases)
	}
	// helm-controller names a release <targetNamespace>-<name> unless
	// releaseName says otherwise, and installs it into the targetNamespace,
	// else into the HelmRelease's own namespace.
	for i, want := range [][3]string{{"apps-demo", "apps", "apps"}, {"fixed", "demo", ""}} {
		if h := d.HelmReleases[i]; h.Release != want[0] || h.ReleaseNamespace != want[1] || h.TargetNamespace != want[2] {
			t.Errorf("HelmRelease %s: release %s in %s (targetNamespace %q), want %s in %s (%q)", h.Name, h.Release, h.ReleaseNamespace, h.TargetNamespace, want[0], want[1], want[2])
		}
	}
	if charts, err := x.Charts(); err != nil || len(charts) != 1 || charts["demo"] != "1.2.3" {
		t.Errorf("charts: %v %v", charts, err)
	}
	x.Dirs = append(x.Dirs, Dir{Path: "applications/base/services/demo2", HelmReleases: []HelmRelease{{Name: "demo2", Chart: "demo", Version: "2.0.0"}}})
	if _, err := x.Charts(); err == nil || !strings.Contains(err.Error(), "two versions") {
		t.Errorf("a chart at two versions: %v", err)
	}
	x.Dirs = x.Dirs[:len(x.Dirs)-1]
	if len(d.Remote) != 1 || !strings.Contains(d.Remote[0], "https://example.com/crds.yaml") {
		t.Errorf("remote: %v", d.Remote)
	}
	c, _ := x.Dir("applications/base/services/crds")
	for _, o := range c.Objects {
		if o.Kind == "CustomResourceDefinition" && o.CRDGroup != "demo.example.com" {
			t.Errorf("crd group: %+v", o)
		}
		if o.Kind == "Secret" && o.Generated {
			t.Errorf("a committed Secret manifest is not generated: %+v", o)
		}
	}
	if b, _ := x.Dir("applications/base/services/broken"); b.Error == "" {
		t.Error("a directory that does not build records its error")
	}

	// Round trip through the committed form, and provenance is required.
	data, err := Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "r1.json")
	os.WriteFile(file, data, 0o644)
	y, err := Load(file)
	if err != nil || len(y.Dirs) != 3 || y.Commit != x.Commit {
		t.Errorf("load: %v %+v", err, y)
	}
	os.WriteFile(file, []byte(`{"ref":"r1","dirs":[]}`), 0o644)
	if _, err := Load(file); err == nil || !strings.Contains(err.Error(), "provenance") {
		t.Errorf("an index without its commit: %v", err)
	}
}
