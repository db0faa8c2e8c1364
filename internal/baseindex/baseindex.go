package baseindex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// Root is the part of the base repository the index covers.
const Root = "applications/base"

// Index is one base release.
type Index struct {
	// Repo is the repository URL the index was extracted from.
	Repo string `json:"repo"`
	// Ref is the tag or branch.
	Ref string `json:"ref"`
	// Branch marks a Ref that is a branch: a release is a tag, and Flux
	// fetches a GitRepository's spec.ref.tag among tags only.
	Branch bool `json:"branch,omitempty"`
	// Commit is the commit Ref named at extraction.
	Commit string `json:"commit"`
	// Dirs are the kustomization directories under Root, sorted by path.
	Dirs []Dir `json:"dirs"`
}

// Dir is one kustomization directory of the base.
type Dir struct {
	// Path is relative to the repository root.
	Path string `json:"path"`
	// Objects are what `kustomize build` of the directory creates, sorted.
	Objects []Object `json:"objects,omitempty"`
	// HelmReleases are the HelmReleases among Objects, with what they read.
	HelmReleases []HelmRelease `json:"helm_releases,omitempty"`
	// Remote lists remote resources (URLs) the build names; their objects are not indexed.
	Remote []string `json:"remote,omitempty"`
	// Error is the build error, when the directory does not build offline.
	Error string `json:"error,omitempty"`
}

// Object identifies one object.
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
	// CRDGroup is the group a CustomResourceDefinition defines.
	CRDGroup string `json:"crdGroup,omitempty"`
	// Generated marks generator output (secretGenerator, configMapGenerator):
	// a generated Secret is not secret material committed as a manifest.
	Generated bool `json:"generated,omitempty"`
	// Home is the directory of the manifest that defines the object, when
	// that is not the directory built: a kustomization that lists another
	// directory's file (../sources/charts.yaml) shares the object with that
	// directory's own build.
	Home string `json:"home,omitempty"`
}

// HelmRelease is a HelmRelease and what it reads.
type HelmRelease struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Chart and Version are the chart the HelmRelease installs and its
	// version (spec.chart.spec), empty for a chartRef.
	Chart   string `json:"chart,omitempty"`
	Version string `json:"version,omitempty"`
	// Release and ReleaseNamespace are the Helm release's name and the
	// namespace its objects go to, as helm-controller derives them: a
	// chart names its objects after the release.
	Release          string `json:"release"`
	ReleaseNamespace string `json:"releaseNamespace"`
	// TargetNamespace is spec.targetNamespace as written: when set, the
	// chart installs there wherever the HelmRelease itself is applied (a
	// Flux Kustomization's targetNamespace moves the object, not this).
	TargetNamespace string `json:"targetNamespace,omitempty"`
	// Source is the chart's source object.
	Source     Ref         `json:"source"`
	ValuesFrom []ValuesRef `json:"valuesFrom,omitempty"`
}

// Ref names an object by kind, name and namespace.
type Ref struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// ValuesRef is one valuesFrom entry.
type ValuesRef struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	ValuesKey string `json:"valuesKey,omitempty"`
	Optional  bool   `json:"optional,omitempty"`
}

// Dir returns the directory at p.
func (x *Index) Dir(p string) (*Dir, bool) {
	i, ok := slices.BinarySearchFunc(x.Dirs, p, func(d Dir, t string) int { return strings.Compare(d.Path, t) })
	if !ok {
		return nil, false
	}
	return &x.Dirs[i], true
}

// Extract indexes the files of a base repository (slash paths to contents).
func Extract(repo, ref, commit string, files map[string][]byte) (*Index, error) {
	b, err := fluxbuild.NewBuilder(files)
	if err != nil {
		return nil, err
	}
	x := &Index{Repo: repo, Ref: ref, Commit: commit}
	for p := range files {
		if path.Base(p) != "kustomization.yaml" || !strings.HasPrefix(p, Root+"/") {
			continue
		}
		d := Dir{Path: path.Dir(p)}
		res, err := b.Build(d.Path, "", nil)
		if err != nil {
			d.Error = err.Error()
			x.Dirs = append(x.Dirs, d)
			continue
		}
		d.Remote = res.Remote
		for _, o := range res.Objects {
			obj := Object{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, Generated: o.Generated()}
			if o.Kind == "CustomResourceDefinition" {
				obj.CRDGroup = fluxbuild.String(o.Body, "spec", "group")
			}
			if home := path.Dir(o.File); !obj.Generated && home != d.Path {
				obj.Home = home
			}
			d.Objects = append(d.Objects, obj)
			if o.Kind == "HelmRelease" {
				d.HelmReleases = append(d.HelmReleases, HelmReleaseOf(o))
			}
		}
		slices.SortFunc(d.Objects, func(a, b Object) int {
			return strings.Compare(a.Kind+"/"+a.Namespace+"/"+a.Name, b.Kind+"/"+b.Namespace+"/"+b.Name)
		})
		slices.SortFunc(d.HelmReleases, func(a, b HelmRelease) int {
			return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
		})
		x.Dirs = append(x.Dirs, d)
	}
	slices.SortFunc(x.Dirs, func(a, b Dir) int { return strings.Compare(a.Path, b.Path) })
	return x, nil
}

// Charts returns each chart the index's HelmReleases install, with its
// version; a chart installed at two versions is an error.
func (x *Index) Charts() (map[string]string, error) {
	charts := map[string]string{}
	for _, d := range x.Dirs {
		for _, h := range d.HelmReleases {
			if h.Chart == "" {
				continue
			}
			if v, ok := charts[h.Chart]; ok && v != h.Version {
				return nil, fmt.Errorf("base release %s installs chart %s at two versions, %s and %s", x.Ref, h.Chart, v, h.Version)
			}
			charts[h.Chart] = h.Version
		}
	}
	return charts, nil
}

// HelmReleaseOf reads a HelmRelease object as the index records it.
func HelmReleaseOf(o fluxbuild.Object) HelmRelease {
	hr := helmv2.HelmRelease{ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace}}
	hr.Spec.ReleaseName = fluxbuild.String(o.Body, "spec", "releaseName")
	hr.Spec.TargetNamespace = fluxbuild.String(o.Body, "spec", "targetNamespace")
	h := HelmRelease{Name: o.Name, Namespace: o.Namespace, Release: hr.GetReleaseName(), ReleaseNamespace: hr.GetReleaseNamespace(), TargetNamespace: hr.Spec.TargetNamespace}
	if m, ok := fluxbuild.Field(o.Body, "spec", "chartRef").(map[string]any); ok {
		h.Source = Ref{Kind: fluxbuild.String(m, "kind"), Name: fluxbuild.String(m, "name"), Namespace: fluxbuild.String(m, "namespace")}
	} else if m, ok := fluxbuild.Field(o.Body, "spec", "chart", "spec").(map[string]any); ok {
		h.Chart, h.Version = fluxbuild.String(m, "chart"), fluxbuild.String(m, "version")
		if m, ok := m["sourceRef"].(map[string]any); ok {
			h.Source = Ref{Kind: fluxbuild.String(m, "kind"), Name: fluxbuild.String(m, "name"), Namespace: fluxbuild.String(m, "namespace")}
		}
	}
	vf, _ := fluxbuild.Field(o.Body, "spec", "valuesFrom").([]any)
	for _, v := range vf {
		m, _ := v.(map[string]any)
		opt, _ := m["optional"].(bool)
		h.ValuesFrom = append(h.ValuesFrom, ValuesRef{Kind: fluxbuild.String(m, "kind"), Name: fluxbuild.String(m, "name"), ValuesKey: fluxbuild.String(m, "valuesKey"), Optional: opt})
	}
	return h
}

// Marshal encodes an index as stable, indented JSON.
func Marshal(x *Index) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Load reads an index file.
func Load(file string) (*Index, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var x Index
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if x.Ref == "" || x.Commit == "" {
		return nil, fmt.Errorf("%s: an index needs its ref and commit (provenance)", file)
	}
	if !slices.IsSortedFunc(x.Dirs, func(a, b Dir) int { return strings.Compare(a.Path, b.Path) }) {
		return nil, fmt.Errorf("%s: dirs are not sorted by path", file)
	}
	return &x, nil
}
