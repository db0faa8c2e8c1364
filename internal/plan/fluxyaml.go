package plan

import (
	"bytes"
	"slices"
	"sync"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// The renderer writes most of an overlay's bytes as Flux Kustomizations and
// GitRepositories. It builds them as Flux API types and writes the fields it
// sets directly, in the sorted-key layout marshal (the general path) writes;
// TestMarshalMatchesReference holds both to the reference encoding.

type yw struct{ bytes.Buffer }

// newYW returns a writer appending to dst.
func newYW(dst []byte) *yw { return &yw{*bytes.NewBuffer(dst)} }

func (w *yw) line(indent int, key, value string) {
	w.WriteString("                "[:indent])
	w.WriteString(key)
	if value == "" {
		w.WriteString(":\n")
		return
	}
	w.WriteString(": ")
	w.WriteString(value)
	w.WriteByte('\n')
}

// meta writes an object's head. labels is m's labels block as appendLabels
// writes it, when the caller has it already (the objects of a unit share
// theirs); nil to write it from m.
func (w *yw) meta(apiVersion, kind string, m *metav1.ObjectMeta, labels []byte) {
	w.line(0, "apiVersion", apiVersion)
	w.line(0, "kind", kind)
	w.line(0, "metadata", "")
	if labels == nil {
		labels = appendLabels(w.AvailableBuffer(), m.Labels)
	}
	w.Write(labels)
	w.line(2, "name", yamlenc.Scalar(m.Name))
	if m.Namespace != "" {
		w.line(2, "namespace", yamlenc.Scalar(m.Namespace))
	}
}

// appendLabels appends the metadata.labels block of labels to dst, its
// keys sorted; nothing for no labels.
func appendLabels(dst []byte, labels map[string]string) []byte {
	if len(labels) == 0 {
		return dst
	}
	dst = append(dst, "  labels:\n"...)
	var buf [8]string // a handful of labels: sorted without allocating
	keys := buf[:0]
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		dst = yamlenc.AppendKey(append(dst, "    "...), k, 4)
		dst = append(yamlenc.AppendScalar(append(dst, ": "...), labels[k]), '\n')
	}
	return dst
}

// durations holds the text of the few durations an overlay uses, so that
// each Flux object does not format them again.
var durations sync.Map // time.Duration -> string

func durText(d *metav1.Duration) string {
	if s, ok := durations.Load(d.Duration); ok {
		return s.(string)
	}
	s := yamlenc.Scalar(d.Duration.String())
	durations.Store(d.Duration, s)
	return s
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// kustomizationYAMLOf writes a Flux Kustomization as built by kustomization
// and customerManaged; ok is false for fields it does not know, and the caller
// then uses marshal.
func kustomizationYAMLOf(dst []byte, k *kustomizev1.Kustomization, labels []byte) ([]byte, bool) {
	s := &k.Spec
	if s.CommonMetadata != nil || s.KubeConfig != nil || s.PostBuild != nil || s.NamePrefix != "" || s.NameSuffix != "" ||
		len(s.Images) > 0 || s.ServiceAccountName != "" || s.Suspend || s.Force || len(s.BuildMetadata) > 0 || len(s.Components) > 0 ||
		s.IgnoreMissingComponents || len(s.HealthCheckExprs) > 0 || len(s.Ignore) > 0 || s.SourceRef.APIVersion != "" || s.SourceRef.Namespace != "" ||
		len(k.Annotations) > 0 || (s.Decryption != nil && s.Decryption.ServiceAccountName != "") {
		return nil, false
	}
	w := newYW(dst)
	w.meta(kustomizationAPIVersion, kustomizev1.KustomizationKind, &k.ObjectMeta, labels)
	w.line(0, "spec", "")
	if d := s.Decryption; d != nil {
		w.line(2, "decryption", "")
		w.line(4, "provider", yamlenc.Scalar(d.Provider))
		if d.SecretRef != nil {
			w.line(4, "secretRef", "")
			w.line(6, "name", yamlenc.Scalar(d.SecretRef.Name))
		}
	}
	if s.DeletionPolicy != "" {
		w.line(2, "deletionPolicy", yamlenc.Scalar(s.DeletionPolicy))
	}
	if len(s.DependsOn) > 0 {
		w.line(2, "dependsOn", "")
		for _, d := range s.DependsOn {
			if d.Namespace != "" {
				return nil, false
			}
			w.line(2, "- name", yamlenc.Scalar(d.Name))
		}
	}
	if len(s.HealthChecks) > 0 {
		w.line(2, "healthChecks", "")
		for _, h := range s.HealthChecks {
			w.line(2, "- apiVersion", yamlenc.Scalar(h.APIVersion))
			w.line(4, "kind", yamlenc.Scalar(h.Kind))
			w.line(4, "name", yamlenc.Scalar(h.Name))
			if h.Namespace != "" {
				w.line(4, "namespace", yamlenc.Scalar(h.Namespace))
			}
		}
	}
	w.line(2, "interval", durText(&s.Interval))
	if len(s.Patches) > 0 {
		w.line(2, "patches", "")
		for _, p := range s.Patches {
			t := p.Target
			if t == nil || t.Version != "" || t.LabelSelector != "" || t.AnnotationSelector != "" {
				return nil, false
			}
			w.WriteString("  - patch: ")
			w.Write(yamlenc.AppendString(w.AvailableBuffer(), p.Patch, 6))
			w.WriteByte('\n')
			w.line(4, "target", "")
			for _, f := range [...]struct{ key, value string }{{"group", t.Group}, {"kind", t.Kind}, {"name", t.Name}, {"namespace", t.Namespace}} {
				if f.value != "" {
					w.line(6, f.key, yamlenc.Scalar(f.value))
				}
			}
		}
	}
	if s.Path != "" {
		w.line(2, "path", yamlenc.Scalar(s.Path))
	}
	w.line(2, "prune", boolText(s.Prune))
	if s.RetryInterval != nil {
		w.line(2, "retryInterval", durText(s.RetryInterval))
	}
	w.line(2, "sourceRef", "")
	w.line(4, "kind", yamlenc.Scalar(s.SourceRef.Kind))
	w.line(4, "name", yamlenc.Scalar(s.SourceRef.Name))
	if s.TargetNamespace != "" {
		w.line(2, "targetNamespace", yamlenc.Scalar(s.TargetNamespace))
	}
	if s.Timeout != nil {
		w.line(2, "timeout", durText(s.Timeout))
	}
	if s.Wait {
		w.line(2, "wait", "true")
	}
	return w.Bytes(), true
}

// gitRepositoryYAMLOf writes a GitRepository as built by gitRepository and
// customerManaged; ok is false for fields it does not know.
func gitRepositoryYAMLOf(dst []byte, g *sourcev1.GitRepository, labels []byte) ([]byte, bool) {
	s := &g.Spec
	if s.Provider != "" || s.ServiceAccountName != "" || s.Verification != nil || s.ProxySecretRef != nil || s.Ignore != nil ||
		s.Suspend || s.RecurseSubmodules || len(s.SparseCheckout) > 0 || len(g.Annotations) > 0 {
		return nil, false
	}
	if r := s.Reference; r != nil && (r.SemVer != "" || r.Name != "" || r.Commit != "") {
		return nil, false
	}
	w := newYW(dst)
	w.meta(gitRepositoryAPIVersion, sourcev1.GitRepositoryKind, &g.ObjectMeta, labels)
	w.line(0, "spec", "")
	if len(s.Include) > 0 {
		w.line(2, "include", "")
		for _, i := range s.Include {
			w.line(2, "- fromPath", yamlenc.Scalar(i.FromPath))
			w.line(4, "repository", "")
			w.line(6, "name", yamlenc.Scalar(i.GitRepositoryRef.Name))
			w.line(4, "toPath", yamlenc.Scalar(i.ToPath))
		}
	}
	w.line(2, "interval", durText(&s.Interval))
	if r := s.Reference; r != nil {
		w.line(2, "ref", "")
		if r.Branch != "" {
			w.line(4, "branch", yamlenc.Scalar(r.Branch))
		}
		if r.Tag != "" {
			w.line(4, "tag", yamlenc.Scalar(r.Tag))
		}
	}
	if s.SecretRef != nil {
		w.line(2, "secretRef", "")
		w.line(4, "name", yamlenc.Scalar(s.SecretRef.Name))
	}
	if s.Timeout != nil {
		w.line(2, "timeout", durText(s.Timeout))
	}
	w.line(2, "url", yamlenc.Scalar(s.URL))
	return w.Bytes(), true
}
