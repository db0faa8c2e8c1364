package plan

import (
	"cmp"
	"fmt"
	"maps"
	"time"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"github.com/fluxcd/pkg/apis/kustomize"
	"github.com/fluxcd/pkg/apis/meta"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fluxorder"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// labels are the labels of the Flux objects of a unit (part). The objects
// of an active unit share one map, made before units render in parallel
// (partLabels) and never changed.
func (b *builder) labels(part string) map[string]string {
	if l, ok := b.partLabels[part]; ok {
		return l
	}
	return b.fillLabels(map[string]string{}, part)
}

// fillLabels sets the labels of part's Flux objects in the empty map l.
func (b *builder) fillLabels(l map[string]string, part string) map[string]string {
	maps.Copy(l, b.c.OpenCenter.Meta.Labels)
	l[config.LabelPartOf] = part
	l[config.LabelManagedBy] = "flux"
	l[config.LabelOpenCenter] = "opencenter"
	return l
}

// fluxDurations are gitops.flux's durations, parsed once per plan and shared
// (read-only) by every Flux object that points at them.
type fluxDurations struct {
	interval, retry, timeout          metav1.Duration
	intervalErr, retryErr, timeoutErr error
}

func parseFluxDurations(f *config.Flux) *fluxDurations {
	d := &fluxDurations{}
	d.interval, d.intervalErr = duration(f.Interval)
	d.retry, d.retryErr = duration(f.RetryInterval)
	d.timeout, d.timeoutErr = duration(f.Timeout)
	return d
}

func duration(s string) (metav1.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return metav1.Duration{}, fmt.Errorf("duration %q: %v", s, err)
	}
	return metav1.Duration{Duration: d}, nil
}

func (b *builder) objectMeta(name, part string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: fluxSystem, Labels: b.labels(part)}
}

// gitRepository appends a unit's GitRepository to dst.
func (b *builder) gitRepository(dst []byte, u *catalog.Unit, s catalog.Source) ([]byte, error) {
	g := &b.c.OpenCenter.GitOps
	d := b.durations
	if err := cmp.Or(d.intervalErr, d.timeoutErr); err != nil {
		return nil, err
	}
	spec := sourcev1.GitRepositorySpec{Interval: d.interval, Timeout: &d.timeout}
	switch s.Repo {
	case catalog.RepoBase:
		spec.URL = config.FluxURL(g.BaseRepo.URL)
		ref := &sourcev1.GitRepositoryRef{Tag: g.BaseRepo.Release}
		if ref.Tag == "" {
			ref.Branch = g.BaseRepo.Branch
		}
		if o := u.SourceOverride(b.c); o != nil {
			if o.Repo != "" {
				spec.URL = config.FluxURL(o.Repo)
			}
			switch {
			case o.Release != "":
				ref = &sourcev1.GitRepositoryRef{Tag: o.Release}
			case o.Branch != "":
				ref = &sourcev1.GitRepositoryRef{Branch: o.Branch}
			}
		}
		spec.Reference = ref
		if g.BaseRepo.SecretName != "" {
			spec.SecretRef = &meta.LocalObjectReference{Name: g.BaseRepo.SecretName}
		}
	case catalog.RepoCluster:
		spec.URL = config.FluxURL(g.Repository.URL)
		spec.Reference = &sourcev1.GitRepositoryRef{Branch: g.Repository.Branch}
		// flux bootstrap stores the cluster repo's credentials in Secret flux-system.
		spec.SecretRef = &meta.LocalObjectReference{Name: fluxSystem}
	default:
		return nil, fmt.Errorf("repo %q is not rendered for service units", s.Repo)
	}
	for _, inc := range s.Include {
		spec.Include = append(spec.Include, sourcev1.GitRepositoryInclude{
			GitRepositoryRef: meta.LocalObjectReference{Name: inc.Source},
			FromPath:         inc.From,
			ToPath:           b.expand(u, inc.To),
		})
	}
	obj := sourcev1.GitRepository{
		TypeMeta:   metav1.TypeMeta{APIVersion: gitRepositoryAPIVersion, Kind: sourcev1.GitRepositoryKind},
		ObjectMeta: b.objectMeta(s.Name, u.Name),
		Spec:       spec,
	}
	return marshal(dst, &obj), nil
}

// sourceObject is the one object of the file gitRepository writes for
// source name, known without reading it back.
func sourceObject(name string) fluxorder.Object {
	return fluxorder.Object{Group: sourcev1.GroupVersion.Group, Kind: sourcev1.GitRepositoryKind, Name: name, Namespace: fluxSystem}
}

// kustomization appends a Flux Kustomization of a unit to dst.
func (b *builder) kustomization(dst []byte, fp *fluxPlan) ([]byte, error) {
	u, fu := fp.Unit, fp.Spec
	k := kustomizev1.Kustomization{
		TypeMeta:   metav1.TypeMeta{APIVersion: kustomizationAPIVersion, Kind: kustomizev1.KustomizationKind},
		ObjectMeta: b.objectMeta(fu.Name, u.Name),
	}
	if err := b.fluxSpec(&k.Spec, ""); err != nil {
		return nil, err
	}
	k.Spec.SourceRef = kustomizev1.CrossNamespaceSourceReference{Kind: sourcev1.GitRepositoryKind, Name: fu.Source}
	k.Spec.Path = fp.Path
	k.Spec.TargetNamespace = fp.target
	// The descriptor's dependsOn, then the CRD providers it needs, sorted.
	for _, deps := range [2][]string{fu.DependsOn, fp.After} {
		for _, d := range deps {
			if owner := b.fluxOf[d]; owner != nil && b.external[owner.Name] {
				continue // installed outside opencenter: there already
			}
			k.Spec.DependsOn = append(k.Spec.DependsOn, kustomizev1.DependencyReference{Name: d})
		}
	}
	for _, o := range fp.Shared {
		k.Spec.Patches = append(k.Spec.Patches, removal(o.Object))
	}
	if fp.valuesFrom != nil {
		k.Spec.Patches = append(k.Spec.Patches, *fp.valuesFrom)
	}
	if fu.ReplaceCRDs {
		k.Spec.Patches = append(k.Spec.Patches, replaceCRDs(u))
	}
	if b.decrypts(fp) {
		k.Spec.Decryption = b.decryption()
	}
	if len(fu.Only) > 0 {
		// Deleting the unit leaves its Namespace: an opencenter from before
		// the unit existed would remove it, and Flux would then delete the
		// Namespace with everything the service keeps in it.
		k.Spec.DeletionPolicy = kustomizev1.DeletionPolicyOrphan
	}
	k.Spec.Wait = fu.Wait
	if u.Common != nil {
		// The service's adoption mode: managed and sync leave Flux's
		// defaults (no force, not suspended).
		switch u.Common(b.c).AdoptionMode {
		case config.AdoptionDeferred:
			k.Spec.Suspend = true
		case config.AdoptionTakeover:
			k.Spec.Force = true
		}
	}
	for _, h := range fu.HealthChecks {
		k.Spec.HealthChecks = append(k.Spec.HealthChecks, meta.NamespacedObjectKindReference{
			APIVersion: h.APIVersion, Kind: h.Kind, Name: h.Name, Namespace: b.expand(u, h.Namespace),
		})
	}
	return marshal(dst, &k), nil
}

// removal is the Flux patch that takes o, an object of a base path, out of
// the build. The target names o by group, kind and name, not namespace:
// Flux adds its patches to the path's kustomization, whose own namespace
// (the one the index records) kustomize sets only after the patches, so a
// manifest without one would not match. A target that matches nothing is
// no error, so a base that stops sharing o still builds.
func removal(o fluxorder.Object) kustomize.Patch {
	m := o.Base
	patch := yamlenc.Append(nil, map[string]any{
		"$patch": "delete", "apiVersion": m.APIVersion, "kind": m.Kind, "metadata": map[string]any{"name": m.Name},
	})
	return kustomize.Patch{Patch: string(patch), Target: &kustomize.Selector{Group: m.Group(), Kind: m.Kind, Name: m.Name}}
}

// planValuesFrom sets fp.valuesFrom, the Flux patch adding the ValuesFrom
// Secrets the config names to the valuesFrom of the unit's HelmRelease,
// after the base's own, which they override, and records in the plan
// those that exist outside the repository. It is a JSON 6902 add: a
// strategic merge would replace the list, which has no merge key in the
// HelmRelease CRD. The target names no namespace, as removal's does not.
func (b *builder) planValuesFrom(fp *fluxPlan) {
	var ops []any
	for _, v := range fp.Spec.ValuesFrom {
		name := v.Name(b.c)
		if name == "" {
			continue
		}
		if v.SecretOf != nil {
			b.p.ExistingSecrets = append(b.p.ExistingSecrets, types.NamespacedName{Namespace: cmpOr(fp.target, b.expand(fp.Unit, "{namespace}")), Name: name})
		}
		ops = append(ops, map[string]any{
			"op": "add", "path": "/spec/valuesFrom/-",
			"value": helmv2.ValuesReference{Kind: "Secret", Name: name, ValuesKey: catalog.ValuesKey},
		})
	}
	if len(ops) > 0 {
		fp.valuesFrom = &kustomize.Patch{Patch: string(yamlenc.Append(nil, ops)), Target: &kustomize.Selector{Group: helmv2.GroupVersion.Group, Kind: helmv2.HelmReleaseKind, Name: fp.Unit.HelmRelease}}
	}
}

// replaceCRDs is the Flux patch setting the CRD policy of unit u's
// HelmRelease, on install and on upgrade, to CreateReplace: its chart's
// crds/ directory, which Helm otherwise installs only where no CRD of the
// name exists and never upgrades, then makes the cluster's CRDs the chart's
// at every release. A merge patch, so that it adds install and upgrade
// where the base has none.
func replaceCRDs(u *catalog.Unit) kustomize.Patch {
	crds := map[string]any{"crds": helmv2.CreateReplace}
	patch := yamlenc.Append(nil, map[string]any{
		"apiVersion": helmv2.GroupVersion.String(), "kind": helmv2.HelmReleaseKind, "metadata": map[string]any{"name": u.HelmRelease},
		"spec": map[string]any{"install": crds, "upgrade": crds},
	})
	return kustomize.Patch{
		Patch:  string(patch),
		Target: &kustomize.Selector{Group: helmv2.GroupVersion.Group, Kind: helmv2.HelmReleaseKind, Name: u.HelmRelease},
	}
}

// decryption is the spec.decryption of Flux units applying secret
// material, shared by the plan's Flux objects (each is marshalled, never
// changed).
func (b *builder) decryption() *kustomizev1.Decryption {
	if b.decrypt == nil {
		b.decrypt = &kustomizev1.Decryption{Provider: "sops", SecretRef: &meta.LocalObjectReference{Name: b.c.OpenCenter.GitOps.OverlayUnits.SOPS.SecretName}}
	}
	return b.decrypt
}

// fluxSpec fills the reconciliation settings of gitops.flux (interval
// overridden when interval is set).
func (b *builder) fluxSpec(s *kustomizev1.KustomizationSpec, interval string) error {
	d := b.durations
	iv, err := d.interval, d.intervalErr
	if interval != "" {
		iv, err = duration(interval)
	}
	if err := cmp.Or(err, d.retryErr, d.timeoutErr); err != nil {
		return err
	}
	s.Interval, s.RetryInterval, s.Timeout = iv, &d.retry, &d.timeout
	p := b.c.OpenCenter.GitOps.Flux.Prune
	s.Prune = p == nil || *p
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// The apiVersions of the Flux objects, formatted once.
var (
	kustomizationAPIVersion = kustomizev1.GroupVersion.String()
	gitRepositoryAPIVersion = sourcev1.GroupVersion.String()
)

// marshal appends a Kubernetes object (a pointer to its API type) to dst
// as a manifest: YAML with keys sorted, and no status, which is the
// cluster's to write.
func marshal(dst []byte, obj any) []byte {
	return yamlenc.AppendWithout(dst, obj, "status")
}
