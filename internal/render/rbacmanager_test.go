package render

import (
	"slices"
	"strings"
	"testing"
)

// rbacDefinitionFields are the fields of an RBACDefinition (under
// rbacBindings[]) that the CRD of rbac-manager's chart 1.21.1, which the
// base installs, declares (templates/customresourcedefinition.yaml,
// v1beta1). The API server prunes any other field with a warning: what
// the overlay writes there never reaches rbac-manager.
var rbacDefinitionFields = []string{
	"name",
	"subjects[].automountServiceAccountToken", "subjects[].imagePullSecrets[]", "subjects[].kind", "subjects[].name", "subjects[].namespace",
	"clusterRoleBindings[].clusterRole",
	"roleBindings[].clusterRole", "roleBindings[].namespace", "roleBindings[].namespaceSelector", "roleBindings[].role",
}

// TestRBACDefinitionsFitTheCRD: every field the fixture clusters'
// RBACDefinitions set is one the CRD declares, and each subject's kind is
// one of its enum (Group, ServiceAccount, User).
func TestRBACDefinitionsFitTheCRD(t *testing.T) {
	seen := 0
	for _, p := range corpusPlans(t) {
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				if str(obj, "kind") != "RBACDefinition" {
					continue
				}
				seen++
				bindings, _ := obj["rbacBindings"].([]any)
				for _, b := range bindings {
					for _, leaf := range leafPaths(b, "", true) {
						if !slices.ContainsFunc(rbacDefinitionFields, func(f string) bool { return leaf == f || strings.HasPrefix(leaf, f+".") }) {
							t.Errorf("%s: %s: rbacBindings[].%s is not in the CRD: the API server prunes it", p.Cluster, f.Path, leaf)
						}
					}
					subjects, _ := b.(map[string]any)["subjects"].([]any)
					for _, s := range subjects {
						if k := str(s.(map[string]any), "kind"); !slices.Contains([]string{"Group", "ServiceAccount", "User"}, k) {
							t.Errorf("%s: %s: subject kind %q is not in the CRD's enum", p.Cluster, f.Path, k)
						}
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no fixture cluster renders an RBACDefinition: the test checked nothing")
	}
}
