package fluxsim

import (
	"encoding/json"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// nameRule is the API server's rule for the name of an object of kind:
// RBAC objects take any path segment, Namespaces a DNS label, Services a
// DNS-1035 label, every other kind (custom resources too) a DNS subdomain.
func nameRule(kind string) apivalidation.ValidateNameFunc {
	switch kind {
	case "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
		return path.ValidatePathSegmentName
	case "Namespace":
		return apivalidation.NameIsDNSLabel
	case "Service":
		return apivalidation.NameIsDNS1035Label
	}
	return apivalidation.NameIsDNSSubdomain
}

// MetadataProblems returns what the Kubernetes API server's validation of
// object metadata (apimachinery's ValidateObjectMeta) refuses in the
// metadata of an object of kind: its name, namespace, labels and
// annotations. A namespace is checked when it is set; whether the kind
// needs one is left to the server.
func MetadataProblems(kind string, metadata any) []string {
	text, err := json.Marshal(metadata)
	if err != nil {
		return []string{err.Error()}
	}
	var m metav1.ObjectMeta
	if err := json.Unmarshal(text, &m); err != nil {
		return []string{"metadata: " + err.Error()}
	}
	var out []string
	for _, e := range apivalidation.ValidateObjectMeta(&m, m.Namespace != "", nameRule(kind), field.NewPath("metadata")) {
		out = append(out, e.Error())
	}
	return out
}

// checkMetadata reports objects whose metadata the API server refuses: the
// apply of the whole Flux unit fails.
func (s *sim) checkMetadata() {
	for _, a := range s.objects {
		if a.unit == nil {
			continue
		}
		for _, e := range MetadataProblems(a.Kind, a.Body["metadata"]) {
			s.finding(a.unit.name(), a.File, "%s: the API server refuses it: %s", keyOf(a), e)
		}
	}
}
