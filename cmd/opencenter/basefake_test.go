package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

// indexedBase makes a base repository shaped as opencenter's index of the
// real one says, tag 2026.01 then branch main, each from its index in
// descriptors/base-index: every directory that builds, with the objects
// its build creates, its HelmReleases as indexed (chart, version, source,
// valuesFrom) and its remote resources. Values files are made up (the
// chart and version, so that a version bump changes values too): the
// index does not hold the base's values. Tests cannot reach the real
// repository; the docs show a diff against it. Each of later edits the
// work tree, which is then committed on main.
func indexedBase(t testing.TB, later ...func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	gitrepotest.Git(t, dir, "init", "-q", "-b", "main")
	for i, ref := range []string{"2026.01", "main"} {
		x, err := baseindex.Load(filepath.Join("..", "..", "descriptors", "base-index", ref+".json"))
		if err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dir, "applications"))
		for p, data := range baseFiles(t, x) {
			f := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		gitrepotest.Git(t, dir, "add", "-A")
		gitrepotest.Git(t, dir, "commit", "-q", "-m", "base as indexed at "+ref)
		if i == 0 {
			gitrepotest.Git(t, dir, "tag", ref)
		}
	}
	for _, edit := range later {
		edit(dir)
		gitrepotest.Git(t, dir, "add", "-A")
		gitrepotest.Git(t, dir, "commit", "-q", "-m", "later on main")
	}
	return dir
}

// veleroUpgrade is a change the base makes on main after 2026.01 (made
// up): velero's chart and values move to 10.2.0.
func veleroUpgrade(t testing.TB) func(dir string) {
	return func(dir string) {
		for _, f := range []string{"helmrelease-velero.yaml", "helm-values/velero-values-base.yaml"} {
			p := filepath.Join(dir, "applications/base/services/velero", f)
			data, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(data), "10.1.1") {
				t.Fatalf("%s: %v, or no 10.1.1 in it", p, err)
			}
			os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "10.1.1", "10.2.0")), 0o644)
		}
	}
}

// baseFiles are the files of one indexed base release.
func baseFiles(t testing.TB, x *baseindex.Index) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	write := func(p string, v any) {
		data, err := sigsyaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = data
	}
	for _, d := range x.Dirs {
		if d.Error != "" {
			continue
		}
		// The key each generated values Secret is read at.
		keys := map[string]string{}
		releases := map[string]baseindex.HelmRelease{}
		for _, hr := range d.HelmReleases {
			releases[hr.Namespace+"/"+hr.Name] = hr
			for _, v := range hr.ValuesFrom {
				keys[v.Name] = cmpOr(v.ValuesKey, "values.yaml")
			}
		}
		var resources []string
		var secrets, configMaps []any
		for _, o := range d.Objects {
			meta := map[string]any{"name": o.Name}
			if o.Namespace != "" {
				meta["namespace"] = o.Namespace
			}
			if o.Generated {
				gen := map[string]any{"name": o.Name, "namespace": o.Namespace, "options": map[string]any{"disableNameSuffixHash": true}}
				if o.Kind == "Secret" {
					key := cmpOr(keys[o.Name], "values.yaml")
					file := "helm-values/" + o.Name + ".yaml"
					gen["files"] = []string{key + "=" + file}
					files[path.Join(d.Path, file)] = madeUpValues(x.Ref, o.Name, d.HelmReleases)
					secrets = append(secrets, gen)
				} else {
					gen["literals"] = []string{"made-up=" + x.Ref}
					configMaps = append(configMaps, gen)
				}
				continue
			}
			body := map[string]any{"apiVersion": o.APIVersion, "kind": o.Kind, "metadata": meta}
			switch {
			case o.Kind == "HelmRelease":
				hr := releases[o.Namespace+"/"+o.Name]
				source := map[string]any{"kind": hr.Source.Kind, "name": hr.Source.Name}
				if hr.Source.Namespace != "" {
					source["namespace"] = hr.Source.Namespace
				}
				var from []any
				for _, v := range hr.ValuesFrom {
					from = append(from, v)
				}
				spec := map[string]any{
					"interval":   "15m",
					"chart":      map[string]any{"spec": map[string]any{"chart": hr.Chart, "version": hr.Version, "sourceRef": source}},
					"valuesFrom": from,
				}
				if hr.TargetNamespace != "" {
					spec["targetNamespace"] = hr.TargetNamespace
				}
				body["spec"] = spec
			case o.Kind == "CustomResourceDefinition":
				body["spec"] = map[string]any{"group": o.CRDGroup}
			}
			file := strings.ToLower(o.Kind) + "-" + o.Name + ".yaml"
			write(path.Join(d.Path, file), body)
			resources = append(resources, file)
		}
		resources = append(resources, remoteOf(d)...)
		k := map[string]any{"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization"}
		if len(resources) > 0 {
			k["resources"] = resources
		}
		if len(secrets) > 0 {
			k["secretGenerator"] = secrets
		}
		if len(configMaps) > 0 {
			k["configMapGenerator"] = configMaps
		}
		write(path.Join(d.Path, "kustomization.yaml"), k)
	}
	return files
}

// remoteOf lists a directory's own remote resources.
func remoteOf(d baseindex.Dir) []string {
	var out []string
	for _, r := range d.Remote {
		if dir, url, ok := strings.Cut(r, ": "); ok && dir == d.Path {
			out = append(out, url)
		}
	}
	slices.Sort(out)
	return out
}

// madeUpValues are the values of a generated values Secret: the chart it
// is for and its version, and a few values of every kind.
func madeUpValues(ref, secret string, releases []baseindex.HelmRelease) []byte {
	chart, version := secret, ref
	for _, hr := range releases {
		for _, v := range hr.ValuesFrom {
			if v.Name == secret {
				chart, version = hr.Chart, hr.Version
			}
		}
	}
	return fmt.Appendf(nil, "# Made up from opencenter's index of the base: not the base's values.\nimage:\n  tag: %q\nreplicaCount: 1\nresources:\n  requests:\n    cpu: 100m\nchart: %s\n", version, chart)
}
