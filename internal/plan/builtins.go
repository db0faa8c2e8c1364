package plan

import (
	"fmt"
	"path"
	"slices"
	"strings"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"github.com/fluxcd/pkg/apis/meta"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

type builtinFile struct {
	u *catalog.Unit
	f *catalog.File
}

// builtins computes the files derived from the plan or from config lists, in
// dependency order. Before the Flux units (aggregates false): customer-managed,
// sops and the standard kustomizations, which Flux units apply; after them:
// the aggregates (which list what is in their directory), then the root.
func (b *builder) builtins(active []*catalog.Unit, aggregatesToo bool) {
	var aggregates, standards, roots []builtinFile
	for _, u := range active {
		for i := range u.Files {
			f := &u.Files[i]
			if f.Builtin == "" || !f.When.Holds(b.c) {
				continue
			}
			// Only what lists the Flux unit files waits for them.
			late := f.Builtin == catalog.BuiltinRoot || (f.Builtin == catalog.BuiltinAggregate && path.Base(path.Dir(f.OverlayPath)) == "fluxcd")
			if late != aggregatesToo {
				continue
			}
			switch f.Builtin {
			case catalog.BuiltinCustomerManaged:
				b.customerManaged(u, f.OverlayPath)
			case catalog.BuiltinSOPS:
				b.sops(u, f.OverlayPath)
			case catalog.BuiltinAggregate:
				aggregates = append(aggregates, builtinFile{u, f})
			case catalog.BuiltinStandard:
				standards = append(standards, builtinFile{u, f})
			case catalog.BuiltinRoot:
				roots = append(roots, builtinFile{u, f})
			}
		}
	}
	for _, s := range standards {
		p := s.f.OverlayPath
		resources := b.filesIn(path.Dir(p))
		var components []string
		switch l := b.local[s.u.Name]; {
		case l.Component:
			components = []string{overlay.LocalDir}
		case l.Kustomization:
			resources = append(resources, overlay.LocalDir)
		}
		ns := b.namespace(s.u)
		if f := b.write(s.u, p, false, func(dst []byte) ([]byte, error) {
			return yamlenc.Append(dst, standardKustomization(ns, s.u.ValuesSecret, resources, components)), nil
		}); f != nil {
			f.kustomization = &parsedKustomization{
				file: kustomizationFile{Namespace: ns, Resources: resources},
				refs: slices.Concat(resources, components, []string{valuesFile}),
			}
		}
	}
	for _, a := range aggregates {
		p := a.f.OverlayPath
		resources := b.filesIn(path.Dir(p))
		b.addAggregate(a.u, p, resources)
	}
	for _, r := range roots {
		resources := []string{"./" + fluxSystem}
		for _, l := range catalog.Layers {
			if l == catalog.LayerCluster {
				continue
			}
			dir := l.Dir() + "/fluxcd"
			if b.hasFilesIn(dir) {
				resources = append(resources, "./"+dir)
			}
		}
		b.addAggregate(r.u, r.f.OverlayPath, resources)
	}
}

// addAggregate adds the kustomization.yaml at p listing resources.
func (b *builder) addAggregate(u *catalog.Unit, p string, resources []string) {
	if resources == nil {
		resources = []string{} // written "resources: []", not null
	}
	doc := map[string]any{"apiVersion": kustomizeAPIVersion, "kind": kustomizeKind, "resources": resources}
	if f := b.write(u, p, false, func(dst []byte) ([]byte, error) { return yamlenc.Append(dst, doc), nil }); f != nil {
		f.Aggregate = true
		f.kustomization = &parsedKustomization{file: kustomizationFile{Resources: resources}, refs: resources}
	}
}

// filesIn lists the base names of the plan's files directly in dir, except
// its kustomization.yaml, sorted.
func (b *builder) filesIn(dir string) []string {
	n := 0
	for f := b.byDir[dir]; f != nil; f = f.nextInDir {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for f := b.byDir[dir]; f != nil; f = f.nextInDir {
		if inListing(f) {
			out = append(out, path.Base(f.Path))
		}
	}
	slices.Sort(out)
	return out
}

// hasFilesIn reports whether filesIn(dir) lists anything.
func (b *builder) hasFilesIn(dir string) bool {
	for f := b.byDir[dir]; f != nil; f = f.nextInDir {
		if inListing(f) {
			return true
		}
	}
	return false
}

// inListing reports whether filesIn lists f: every file of a directory but
// its kustomization.yaml.
func inListing(f *file) bool { return path.Base(f.Path) != "kustomization.yaml" }

// The apiVersion and kind of a kustomization.yaml.
const (
	kustomizeAPIVersion = "kustomize.config.k8s.io/v1beta1"
	kustomizeKind       = "Kustomization"
)

// valuesFile holds a standard unit's Helm values, relative to its directory.
const valuesFile = "helm-values/override-values.yaml"

// standardKustomization is the kustomization.yaml of a standard unit: its
// resources and components, in its namespace, and the Secret of its Helm
// values that its base HelmRelease reads (valuesFrom, key override.yaml).
func standardKustomization(ns, secret string, resources, components []string) map[string]any {
	k := map[string]any{
		"apiVersion":       kustomizeAPIVersion,
		"kind":             kustomizeKind,
		"namespace":        ns,
		"generatorOptions": map[string]any{"disableNameSuffixHash": true},
		"secretGenerator":  []any{map[string]any{"name": secret, "files": []string{catalog.OverrideValuesKey + "=" + valuesFile}}},
	}
	if len(resources) > 0 {
		k["resources"] = resources
	}
	if len(components) > 0 {
		k["components"] = components
	}
	return k
}

// sops renders .sops.yaml from the sops rules.
func (b *builder) sops(u *catalog.Unit, p string) {
	var rules []any
	for _, r := range b.c.OpenCenter.GitOps.OverlayUnits.SOPS.Rules {
		rule := map[string]any{"path_regex": r.PathRegex, "age": strings.Join(r.AgeRecipients, ",")}
		if r.EncryptedRegex != "" {
			rule["encrypted_regex"] = r.EncryptedRegex
		}
		rules = append(rules, rule)
	}
	b.write(u, p, false, func(dst []byte) ([]byte, error) {
		return yamlenc.Append(dst, map[string]any{"creation_rules": rules}), nil
	})
}

// customerManaged renders the customer Kustomizations into dir, and the
// customer GitRepository and its optional Secret into the sources directory
// beside it.
func (b *builder) customerManaged(u *catalog.Unit, dir string) {
	sources := path.Join(path.Dir(dir), "sources")
	cm := &b.c.OpenCenter.GitOps.OverlayUnits.CustomerManaged
	g := &b.c.OpenCenter.GitOps
	iv, err := duration(cmpOr(cm.Interval, g.Flux.Interval))
	if err != nil {
		b.errorf(u, "%v", err)
		return
	}
	timeout, err := duration(g.Flux.Timeout)
	if err != nil {
		b.errorf(u, "%v", err)
		return
	}
	repo := sourcev1.GitRepository{
		TypeMeta:   metav1.TypeMeta{APIVersion: gitRepositoryAPIVersion, Kind: sourcev1.GitRepositoryKind},
		ObjectMeta: b.objectMeta(cm.RepositoryName, u.Name),
		Spec: sourcev1.GitRepositorySpec{
			URL: config.FluxURL(cm.RepositoryURL), Interval: iv, Timeout: &timeout,
			Reference: &sourcev1.GitRepositoryRef{Branch: cm.Branch},
		},
	}
	if cm.SecretName != "" {
		repo.Spec.SecretRef = &meta.LocalObjectReference{Name: cm.SecretName}
	}
	b.addObject(u, sources+"/"+cm.RepositoryName+".yaml", &repo, false)
	if b.sources[cm.RepositoryName] {
		b.errorf(u, "customer_managed.repository_name %q is also the name of a platform source: pick another name", cm.RepositoryName)
	}

	if cm.EmitSecret {
		s := &b.c.Secrets.OverlayUnits.CustomerManaged
		secret := corev1.Secret{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: b.objectMeta(cm.SecretName, u.Name),
			Type:       corev1.SecretTypeOpaque,
			StringData: map[string]string{"identity": s.Identity, "identity.pub": s.IdentityPub, "known_hosts": s.KnownHosts},
		}
		b.addObject(u, sources+"/"+cm.SecretName+".yaml", &secret, true)
	}

	sopsOn := b.c.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled
	for i, ck := range cm.Kustomizations {
		if b.flux[ck.Name] {
			b.diags = append(b.diags, b.f.Diag(fmt.Sprintf("%s.kustomizations[%d].name", configPath(u), i),
				"%q is the name of a platform Flux unit: pick another name", ck.Name))
			continue
		}
		k := kustomizev1.Kustomization{
			TypeMeta:   metav1.TypeMeta{APIVersion: kustomizationAPIVersion, Kind: kustomizev1.KustomizationKind},
			ObjectMeta: b.objectMeta(ck.Name, u.Name),
		}
		if err := b.fluxSpec(&k.Spec, cm.Interval); err != nil {
			b.errorf(u, "%v", err)
			return
		}
		k.Spec.SourceRef = kustomizev1.CrossNamespaceSourceReference{Kind: sourcev1.GitRepositoryKind, Name: cm.RepositoryName}
		k.Spec.Path = "." + ck.Path
		for _, d := range ck.DependsOn {
			k.Spec.DependsOn = append(k.Spec.DependsOn, kustomizev1.DependencyReference{Name: d})
		}
		if sopsOn {
			k.Spec.Decryption = b.decryption() // the customer repository may hold SOPS files
		}
		b.addObject(u, dir+"/"+ck.Name+".yaml", &k, false)
	}
}

func (b *builder) addObject(u *catalog.Unit, p string, obj any, secret bool) {
	b.write(u, p, secret, func(dst []byte) ([]byte, error) { return marshal(dst, obj), nil })
}
