package plan

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
	"github.com/opencenter-dev/opencenter/internal/toolcheck"
)

// apiObject is what apiProblems reads of a rendered object.
type apiObject struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   metav1.ObjectMeta `json:"metadata"`
	Data       map[string]any    `json:"data"`
	StringData map[string]any    `json:"stringData"`
}

// apiProblems says what the Kubernetes API server's own validation
// (apimachinery) refuses in the objects of rendered files: an object's
// metadata (name, namespace, labels, annotations), the keys of a Secret's
// or ConfigMap's data, and the names and namespaces an object refers to
// (a name under a ...Ref or dependsOn, a namespace, targetNamespace or
// namespaces), which name objects the cluster must hold; and for the kinds
// whose CRDs toolcheck has (Flux, MetalLB, cert-manager, Gateway API, Envoy
// Gateway), what the CRD refuses, and for the built-in kinds templates write,
// what their API types refuse to decode strictly. Kustomizations
// (kustomize's own files) are not objects.
func apiProblems(files map[string][]byte) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(files)) {
		for _, e := range fileProblems(files[p]) {
			out = append(out, p+": "+e)
		}
	}
	return out
}

// fileSeen remembers fileProblems by the file's bytes: the corpus's renders
// of one config share most of their files.
var fileSeen sync.Map

// fileProblems is apiProblems for the objects of one file.
func fileProblems(data []byte) []string {
	if seen, ok := fileSeen.Load(string(data)); ok {
		return seen.([]string)
	}
	var out []string
	docs, err := yamlDocs(data)
	if err != nil {
		out = append(out, err.Error())
	}
	for _, d := range docs {
		// The object as JSON reads it (numbers as float64), which the
		// validators take.
		var doc any
		if d.Decode(&doc) != nil {
			continue
		}
		text, err := json.Marshal(doc)
		var o apiObject
		var m map[string]any
		if err != nil || json.Unmarshal(text, &o) != nil || json.Unmarshal(text, &m) != nil ||
			o.Kind == "" || strings.HasPrefix(o.APIVersion, "kustomize.config.k8s.io/") {
			continue
		}
		at := o.Kind + " " + o.Metadata.Name
		typed, builtin := builtinObject(o.APIVersion, o.Kind)
		if crds, err := toolcheck.Load(); err != nil {
			out = append(out, "loading the CRDs: "+err.Error())
		} else if crds.Known(o.APIVersion, o.Kind) {
			for _, e := range crds.Validate(m) {
				out = append(out, at+": "+e)
			}
		} else if !builtin {
			out = append(out, fmt.Sprintf("%s: no schema for %s %s: name its CRD in the crds.schemas of the chart that installs it", at, o.APIVersion, o.Kind))
		}
		if builtin {
			// Flux applies an encrypted Secret decrypted, without its sops block.
			applied := maps.Clone(m)
			delete(applied, "sops")
			if text, err := json.Marshal(applied); err != nil {
				out = append(out, at+": "+err.Error())
			} else if err := sigsyaml.UnmarshalStrict(text, typed); err != nil {
				out = append(out, at+": "+err.Error())
			}
		}
		for _, e := range fluxsim.MetadataProblems(o.Kind, m["metadata"]) {
			out = append(out, at+": "+e)
		}
		if o.Kind == "Secret" || o.Kind == "ConfigMap" {
			for _, m := range []map[string]any{o.Data, o.StringData} {
				for k := range m {
					for _, e := range validation.IsConfigMapKey(k) {
						out = append(out, fmt.Sprintf("%s: key %q: %s", at, k, e))
					}
				}
			}
		}
		references(m, "", "", func(field string, problems []string) {
			for _, e := range problems {
				out = append(out, fmt.Sprintf("%s: %s: %s", at, field, e))
			}
		})
	}
	fileSeen.Store(string(data), out)
	return out
}

// builtinScheme holds the API types of the Kubernetes API server's own
// groups, at their GA versions: an object of a built-in kind must decode
// into its type strictly (no unknown or duplicate field, every value of its
// field's type), as the API server's strict field validation requires.
var builtinScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		admissionregistrationv1.AddToScheme, appsv1.AddToScheme, autoscalingv1.AddToScheme, autoscalingv2.AddToScheme,
		batchv1.AddToScheme, certificatesv1.AddToScheme, coordinationv1.AddToScheme, corev1.AddToScheme,
		discoveryv1.AddToScheme, networkingv1.AddToScheme, nodev1.AddToScheme, policyv1.AddToScheme,
		rbacv1.AddToScheme, schedulingv1.AddToScheme, storagev1.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// builtinObject returns a new object of the built-in kind, and false for
// a kind the API server does not serve itself.
func builtinObject(apiVersion, kind string) (runtime.Object, bool) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	if apiVersion == "k8s.keycloak.org/v2alpha1" && kind == "KeycloakRealmImport" {
		return &keycloakRealmImport{}, true
	}
	obj, err := builtinScheme.New(gv.WithKind(kind))
	return obj, err == nil
}

// keycloakRealmImport is the part of the Keycloak operator's
// KeycloakRealmImport (v2alpha1, keycloak-operator 26) that
// keycloak-realm-import.yaml.tpl writes, its fields named and typed as
// Keycloak's RealmRepresentation, ClientRepresentation,
// GroupRepresentation and ProtocolMapperRepresentation name them. The
// operator's CRDs are generated from its Java types at its build and come
// with OLM, in no Go module nor chart that a descriptor's schemas can name;
// strict decoding into this type stands in for them.
type keycloakRealmImport struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		KeycloakCRName string `json:"keycloakCRName"`
		Realm          struct {
			Realm   string `json:"realm"`
			Enabled bool   `json:"enabled"`
			Groups  []struct {
				Name string `json:"name"`
			} `json:"groups"`
			Clients []struct {
				ClientID                  string   `json:"clientId"`
				PublicClient              bool     `json:"publicClient"`
				StandardFlowEnabled       bool     `json:"standardFlowEnabled"`
				DirectAccessGrantsEnabled bool     `json:"directAccessGrantsEnabled"`
				RedirectURIs              []string `json:"redirectUris"`
				ProtocolMappers           []struct {
					Name           string            `json:"name"`
					Protocol       string            `json:"protocol"`
					ProtocolMapper string            `json:"protocolMapper"`
					Config         map[string]string `json:"config"`
				} `json:"protocolMappers"`
			} `json:"clients"`
		} `json:"realm"`
	} `json:"spec"`
}

func (k *keycloakRealmImport) DeepCopyObject() runtime.Object { c := *k; return &c }

// references reports the problems of each name and namespace that v (an
// object, or a part of one under the key parent, at field) refers to.
func references(v any, parent, field string, report func(field string, problems []string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			at := field + "." + k
			switch s, _ := x.(string); {
			case k == "namespace" || k == "targetNamespace":
				report(at, validation.IsDNS1123Label(s))
			case k == "name" && (strings.HasSuffix(parent, "Ref") || parent == "dependsOn"):
				report(at, validation.IsDNS1123Subdomain(s))
			case k == "namespaces":
				list, _ := x.([]any)
				for i, n := range list {
					s, _ := n.(string)
					report(fmt.Sprintf("%s[%d]", at, i), validation.IsDNS1123Label(s))
				}
			}
			references(x, k, at, report)
		}
	case []any:
		for i, x := range v {
			references(x, parent, fmt.Sprintf("%s[%d]", field, i), report)
		}
	}
}

// TestRenderedObjectsPassAPIValidation: every object the fixture clusters
// render is one the Kubernetes API server's validation accepts, and so are
// the names it refers to (TestHostileValues holds every rendered case of
// the corpus to the same).
func TestRenderedObjectsPassAPIValidation(t *testing.T) {
	for _, p := range corpusPlans(t) {
		files := map[string][]byte{}
		for _, f := range p.Files {
			files[f.Path] = f.Data
		}
		for _, e := range apiProblems(files) {
			t.Errorf("%s: %s", p.Config, e)
		}
	}
}

// TestAPIProblemsFindsWhatTheAPIRefuses: the check above can fail, each
// part of it on its own (a Flux object missing its required fields is
// refused by its CRD too, so each case names the problem it must find).
func TestAPIProblemsFindsWhatTheAPIRefuses(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"label value", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    tier: \"a b\"\n", "metadata.labels: Invalid value: \"a b\""},
		{"label key", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    \"a b\": x\n", "metadata.labels: Invalid value: \"a b\""},
		{"name", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: \"0b+1\"\n", "metadata.name: Invalid value"},
		{"Service name", "apiVersion: v1\nkind: Service\nmetadata:\n  name: 1a\n", "metadata.name: Invalid value: \"1a\""},
		{"namespace", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n  namespace: A\n", "metadata.namespace: Invalid value"},
		{"Secret key", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\nstringData:\n  \"a b\": x\n", `key "a b"`},
		{"secretRef", "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: a\nspec:\n  secretRef:\n    name: \"a b\"\n", ".spec.secretRef.name: a lowercase RFC 1123"},
		{"dependsOn", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: a\nspec:\n  dependsOn:\n    - name: A\n", ".spec.dependsOn[0].name: a lowercase RFC 1123"},
		{"targetNamespace", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: a\nspec:\n  targetNamespace: a.b\n", ".spec.targetNamespace: must not contain dots"},
		{"namespaces in list", "apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: a\nspec:\n  namespaces: [a, \"b,c\"]\n", ".spec.namespaces[1]: a lowercase RFC 1123"},
		{"unknown field", "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: a\nspec:\n  schedul: \"* * * * *\"\n", `unknown field "schedul"`},
		{"value of a wrong type", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\nstringData:\n  k: {a: b}\n", "cannot unmarshal object into Go struct field"},
		{"kind with no schema", "apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: a\n", "no schema for example.com/v1 Thing"},
		{"CRD", "apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata:\n  name: a\nspec:\n  addresses: 10.0.0.0/28\n", "spec.addresses: Invalid value"},
	}
	for _, tc := range cases {
		got := strings.Join(apiProblems(map[string][]byte{"f.yaml": []byte(tc.text)}), "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: want %q among the problems of\n%s\ngot\n%s", tc.name, tc.want, tc.text, got)
		}
	}
	ok := "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: \"system:a\"\n" +
		"---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: x\n"
	if got := apiProblems(map[string][]byte{"f.yaml": []byte(ok)}); len(got) > 0 {
		t.Errorf("problems found in valid objects: %q", got)
	}
}

// TestClusterScopedAgreesWithCRDs: catalog.ClusterScoped, by which a plan
// gives the objects a Flux unit applies their namespace, says of each kind
// a CRD the tests load defines what that CRD's scope says.
func TestClusterScopedAgreesWithCRDs(t *testing.T) {
	crds, err := toolcheck.Load()
	if err != nil {
		t.Fatal(err)
	}
	scopes := crds.Scopes()
	cluster := 0
	for gk, scoped := range scopes {
		_, kind, _ := strings.Cut(gk, "/")
		if catalog.ClusterScoped(kind) != scoped {
			t.Errorf("%s: its CRD says cluster-scoped %v, catalog.ClusterScoped %v", gk, scoped, catalog.ClusterScoped(kind))
		}
		if scoped {
			cluster++
		}
	}
	if cluster == 0 || cluster == len(scopes) {
		t.Errorf("%d of %d kinds cluster-scoped: the CRDs' scopes were not read", cluster, len(scopes))
	}
}
