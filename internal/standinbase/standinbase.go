package standinbase

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
)

// Files are the files of a stand-in of the base at x's ref.
func Files(x *baseindex.Index) (map[string][]byte, error) {
	files := map[string][]byte{
		"README.md": []byte("A stand-in of " + x.Repo + " at " + x.Ref + " (" + x.Commit + "), made from opencenter's index of it. Not the real base.\n"),
	}
	for _, d := range x.Dirs {
		if d.Error != "" {
			// The real directory does not build either: keep it failing.
			files[d.Path+"/kustomization.yaml"] = []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [does-not-build.yaml]\n")
			continue
		}
		k := map[string]any{"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization"}
		var resources []string
		type gen struct {
			ns   string
			keys []string
		}
		gens := map[string]*gen{}
		for _, o := range d.Objects {
			if o.Generated {
				if o.Kind == "Secret" || o.Kind == "ConfigMap" {
					gens[o.Kind+"/"+o.Name] = &gen{ns: o.Namespace}
				}
				continue
			}
			home := d.Path
			if o.Home != "" {
				home = o.Home
			}
			file := strings.ToLower(o.Kind) + "-" + o.Name + ".yaml"
			body, err := object(x, d, o)
			if err != nil {
				return nil, err
			}
			files[home+"/"+file] = body
			rel, err := filepath.Rel(d.Path, home+"/"+file)
			if err != nil {
				return nil, err
			}
			resources = append(resources, filepath.ToSlash(rel))
		}
		for _, h := range d.HelmReleases {
			for _, v := range h.ValuesFrom {
				g := gens[v.Kind+"/"+v.Name]
				if g == nil {
					continue // the override, from the overlay
				}
				key := v.ValuesKey
				if key == "" {
					key = "values.yaml"
				}
				if !slices.Contains(g.keys, key) {
					g.keys = append(g.keys, key)
				}
			}
		}
		for _, r := range d.Remote {
			_, url, _ := strings.Cut(r, ": ")
			resources = append(resources, url)
		}
		slices.Sort(resources)
		k["resources"] = resources
		var names []string
		for n := range gens {
			names = append(names, n)
		}
		slices.Sort(names)
		var secretGen, cmGen []any
		for _, n := range names {
			g := gens[n]
			kind, name, _ := strings.Cut(n, "/")
			if len(g.keys) == 0 {
				g.keys = []string{"values.yaml"}
			}
			var fs []string
			for _, key := range g.keys {
				f := "helm-values/" + name + "-" + key
				files[d.Path+"/"+f] = values(d, name, key)
				fs = append(fs, key+"="+f)
			}
			entry := map[string]any{"name": name, "files": fs, "options": map[string]any{"disableNameSuffixHash": true}}
			if g.ns != "" {
				entry["namespace"] = g.ns
			}
			if kind == "Secret" {
				entry["type"] = "Opaque"
				secretGen = append(secretGen, entry)
			} else {
				cmGen = append(cmGen, entry)
			}
		}
		if secretGen != nil {
			k["secretGenerator"] = secretGen
		}
		if cmGen != nil {
			k["configMapGenerator"] = cmGen
		}
		data, err := sigsyaml.Marshal(k)
		if err != nil {
			return nil, err
		}
		files[d.Path+"/kustomization.yaml"] = data
	}
	return files, nil
}

// object is the manifest of one indexed object.
func object(x *baseindex.Index, d baseindex.Dir, o baseindex.Object) ([]byte, error) {
	md := map[string]any{"name": o.Name}
	if o.Namespace != "" {
		md["namespace"] = o.Namespace
	}
	obj := map[string]any{"apiVersion": o.APIVersion, "kind": o.Kind, "metadata": md}
	switch o.Kind {
	case "Namespace":
	case "OperatorGroup":
		// The overlay replaces spec.targetNamespaces: it must be there.
		obj["spec"] = map[string]any{"targetNamespaces": []any{o.Namespace}}
	case "Subscription":
		// The overlay replaces spec.installPlanApproval: it must be there.
		obj["spec"] = map[string]any{"channel": "stable", "name": o.Name, "source": "stand-in",
			"sourceNamespace": "olm", "installPlanApproval": "Manual"}
	case "Keycloak":
		obj["spec"] = map[string]any{"instances": 1}
	case "HelmRepository":
		obj["spec"] = map[string]any{"interval": "1h", "url": "https://charts.stand-in.test/" + o.Name}
	case "GitRepository":
		obj["spec"] = map[string]any{"interval": "1h", "url": "https://github.com/stand-in/" + o.Name + ".git", "ref": map[string]any{"branch": "main"}}
	case "HelmRelease":
		i := slices.IndexFunc(d.HelmReleases, func(h baseindex.HelmRelease) bool { return h.Name == o.Name && h.Namespace == o.Namespace })
		if i < 0 {
			return nil, fmt.Errorf("%s: HelmRelease %s/%s is not among the index's helm_releases", d.Path, o.Namespace, o.Name)
		}
		obj["spec"] = release(d.HelmReleases[i])
	case "Secret":
		obj["type"] = "Opaque"
		obj["stringData"] = map[string]any{"stand-in": "a base Secret"}
	case "ClusterRole":
		obj["rules"] = []any{}
	case "StorageClass":
		obj["provisioner"] = "stand-in.opencenter.invalid"
	case "CustomResourceDefinition":
		plural, group, _ := strings.Cut(o.Name, ".")
		kind := strings.ToUpper(plural[:1]) + strings.TrimSuffix(plural[1:], "s")
		obj["spec"] = map[string]any{
			"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": plural, "singular": strings.ToLower(kind), "kind": kind, "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
		}
	case "ClusterPolicy":
		// Valid for the ClusterPolicy CRD: one audit rule.
		obj["spec"] = map[string]any{"background": true, "rules": []any{map[string]any{
			"name":     "stand-in",
			"match":    map[string]any{"any": []any{map[string]any{"resources": map[string]any{"kinds": []any{"Pod"}}}}},
			"validate": map[string]any{"failureAction": "Audit", "message": "stand-in", "pattern": map[string]any{"metadata": map[string]any{"name": "?*"}}},
		}}}
	case "RBACDefinition":
		obj["rbacBindings"] = []any{map[string]any{"name": "stand-in",
			"subjects":            []any{map[string]any{"kind": "Group", "name": "stand-in"}},
			"clusterRoleBindings": []any{map[string]any{"clusterRole": "view"}}}}
	case "postgresql":
		obj["spec"] = map[string]any{"teamId": "stand-in", "numberOfInstances": 1,
			"volume": map[string]any{"size": "1Gi"}, "postgresql": map[string]any{"version": "16"}}
	default:
		return nil, fmt.Errorf("%s: the stand-in base has no manifest for kind %s (%s); add one to object", d.Path, o.Kind, o.APIVersion)
	}
	return sigsyaml.Marshal(obj)
}

// release is the spec of a HelmRelease as the index records it.
func release(h baseindex.HelmRelease) map[string]any {
	chart := map[string]any{"chart": h.Chart, "sourceRef": map[string]any{"kind": h.Source.Kind, "name": h.Source.Name}}
	if h.Version != "" {
		chart["version"] = h.Version
	}
	if h.Source.Namespace != "" {
		chart["sourceRef"].(map[string]any)["namespace"] = h.Source.Namespace
	}
	spec := map[string]any{"interval": "5m", "chart": map[string]any{"spec": chart}}
	if h.TargetNamespace != "" {
		spec["targetNamespace"] = h.TargetNamespace
	}
	// helm-controller names the release [targetNamespace-]name unless told.
	def := h.Name
	if h.TargetNamespace != "" {
		def = h.TargetNamespace + "-" + h.Name
	}
	if h.Release != def {
		spec["releaseName"] = h.Release
	}
	var vf []any
	for _, v := range h.ValuesFrom {
		e := map[string]any{"kind": v.Kind, "name": v.Name}
		if v.ValuesKey != "" {
			e["valuesKey"] = v.ValuesKey
		}
		if v.Optional {
			e["optional"] = true
		}
		vf = append(vf, e)
	}
	if vf != nil {
		spec["valuesFrom"] = vf
	}
	return spec
}

// values are the made-up values of a generated values Secret: where they
// stand in, and the chart and version of the HelmRelease that reads them,
// so that a version bump in the base changes its values too.
func values(d baseindex.Dir, secret, key string) []byte {
	chart, version := "", ""
	for _, h := range d.HelmReleases {
		for _, v := range h.ValuesFrom {
			if v.Name == secret {
				chart, version = h.Chart, h.Version
			}
		}
	}
	return fmt.Appendf(nil, "# Stand-in values (%s, key %s): not the base's own.\nstandIn:\n  base: %s\n  key: %s\n  chart: %s\n  version: %q\n", secret, key, d.Path, key, chart, version)
}

// LoadIndexes reads every base index in dir (descriptors/base-index).
func LoadIndexes(dir string) ([]*baseindex.Index, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*baseindex.Index
	for _, m := range matches {
		x, err := baseindex.Load(m)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
