package plan

import (
	"path"
	"slices"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"k8s.io/apimachinery/pkg/types"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// TestSecretValues: the chart values that are secrets (Harbor's internal
// passwords, the root password of Mimir's MinIO) reach the chart from a
// Secret, never the plaintext override: a Flux patch on <unit>-base adds
// the Secret to the base HelmRelease's valuesFrom, after the base's own,
// and kustomize, run as Flux runs it, applies that patch to the base's
// manifest.
func TestSecretValues(t *testing.T) {
	const harbor = `harbor: {enabled: true, hostname: harbor.lab.example.com, admin_existing_secret: harbor-admin-vault, secret_key_existing_secret: harbor-key-vault`
	type value struct{ path, want string }
	cases := []struct {
		name, unit, namespace string
		services, secrets     string
		secret                string  // the Secret the HelmRelease reads
		existing              bool    // outside the repository
		values                []value // what the rendered Secret's values.yaml holds
	}{
		// YAML would read them as a number and a date.
		{"harbor", "harbor", "harbor", harbor + "}", "harbor: {database_password: '12345678', registry_password: '2026-11-23'}", "harbor-values-secret", false,
			[]value{{"database.internal.password", "12345678"}, {"registry.credentials.password", "2026-11-23"}}},
		{"harbor existing", "harbor", "harbor", harbor + ", values_existing_secret: harbor-values-vault}", "", "harbor-values-vault", true, nil},
		{"mimir", "mimir", "observability", "mimir: {enabled: true}", "mimir: {minio_root_password: m0123456789+/=}", "mimir-values-secret", false,
			[]value{{"minio.rootPassword", "m0123456789+/="}}},
		{"mimir existing", "mimir", "observability", "mimir: {enabled: true, values_existing_secret: mimir-values-vault}", "", "mimir-values-vault", true, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := "services/" + tc.unit + "/"
			values, kust := dir+tc.unit+"-values-secret.yaml", dir+"kustomization.yaml"
			p := labPlan(t, "", tc.services, tc.secrets)
			var existing []types.NamespacedName
			if tc.existing {
				existing = []types.NamespacedName{{Namespace: tc.namespace, Name: tc.secret}}
				if hasFile(p, values) {
					t.Errorf("%s is rendered beside values_existing_secret", values)
				}
			} else {
				docs := documents(t, values, []byte(fileText(t, p, values)))
				if len(docs) != 1 || str(docs[0], "metadata", "name") != tc.secret || str(docs[0], "metadata", "namespace") != tc.namespace {
					t.Fatalf("%s: want the Secret %s/%s, got %v", values, tc.namespace, tc.secret, docs)
				}
				var v map[string]any
				if err := sigsyaml.Unmarshal([]byte(str(docs[0], "stringData", catalog.ValuesKey)), &v); err != nil {
					t.Fatalf("%s: values.yaml: %v", values, err)
				}
				for _, want := range tc.values {
					if got := fluxbuild.Field(v, strings.Split(want.path, ".")...); got != want.want {
						t.Errorf("%s: %s is %#v, want the string %s", values, want.path, got, want.want)
					}
					lacks(t, dir+"helm-values/override-values.yaml", fileText(t, p, dir+"helm-values/override-values.yaml"), want.want)
				}
				if !listed(t, p, kust, path.Base(values)) {
					t.Errorf("%s does not list %s", kust, path.Base(values))
				}
			}
			if !slices.Equal(p.ExistingSecrets, existing) {
				t.Errorf("ExistingSecrets = %v, want %v", p.ExistingSecrets, existing)
			}

			var k kustomizev1.Kustomization
			if err := sigsyaml.Unmarshal([]byte(fileText(t, p, "services/fluxcd/"+tc.unit+"-base.yaml")), &k); err != nil {
				t.Fatal(err)
			}
			// The base's HelmRelease as 2026.01 has it (its valuesFrom, and
			// no namespace on the Secrets), built at the Flux unit's path.
			at := strings.TrimPrefix(k.Spec.Path, "./")
			tree := fluxbuild.Tree{
				at + "/kustomization.yaml": []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: " + tc.namespace + "\nresources: [helmrelease.yaml]\n"),
				at + "/helmrelease.yaml": []byte(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: ` + tc.unit + `, namespace: ` + tc.namespace + `}
spec:
  chart: {spec: {chart: ` + tc.unit + `, version: 1.0.0, sourceRef: {kind: HelmRepository, name: ` + tc.unit + `}}}
  valuesFrom:
    - {kind: Secret, name: ` + tc.unit + `-values-base, valuesKey: values.yaml}
    - {kind: Secret, name: ` + tc.unit + `-values-override, valuesKey: override.yaml, optional: true}
`),
			}
			hr := buildRelease(t, tree, at, &k)
			want := []helmv2.ValuesReference{
				{Kind: "Secret", Name: tc.unit + "-values-base", ValuesKey: "values.yaml"},
				{Kind: "Secret", Name: tc.unit + "-values-override", ValuesKey: "override.yaml", Optional: true},
				{Kind: "Secret", Name: tc.secret, ValuesKey: "values.yaml"},
			}
			if !slices.Equal(hr.Spec.ValuesFrom, want) {
				t.Errorf("%s builds the HelmRelease with valuesFrom\n%+v\nwant\n%+v", k.Name, hr.Spec.ValuesFrom, want)
			}
			checkWithTools(t, p)
		})
	}
}

// TestValuesFromSecretsExist: every Secret a values_from patch adds to a
// HelmRelease's valuesFrom, in every corpus plan, is one the plan renders
// in the HelmRelease's namespace with the key the reference reads, or one
// the config names as existing outside the repository (which the plan
// lists for verify). A descriptor's secret that no file of its unit
// renders fails here.
func TestValuesFromSecretsExist(t *testing.T) {
	rendered, existing := 0, 0
	for _, p := range corpusPlans(t) {
		keys := map[types.NamespacedName][]string{} // the keys of each rendered Secret
		var units []map[string]any
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				switch {
				case str(obj, "apiVersion") == "v1" && str(obj, "kind") == "Secret":
					at := types.NamespacedName{Namespace: str(obj, "metadata", "namespace"), Name: str(obj, "metadata", "name")}
					keys[at] = append(keys[at], secretKeys(obj)...)
				case strings.HasPrefix(str(obj, "apiVersion"), "kustomize.toolkit.fluxcd.io/"):
					units = append(units, obj)
				}
			}
		}
		for _, u := range units {
			patches, _ := u["spec"].(map[string]any)["patches"].([]any)
			for _, pt := range patches {
				m := pt.(map[string]any)
				if str(m, "target", "kind") != "HelmRelease" || !strings.HasPrefix(str(m, "patch"), "- op: ") {
					continue // not JSON 6902: a removal
				}
				var ops []struct {
					Op, Path string
					Value    helmv2.ValuesReference
				}
				if err := sigsyaml.Unmarshal([]byte(str(m, "patch")), &ops); err != nil {
					t.Fatalf("%s: %s: patch: %v", p.Config, str(u, "metadata", "name"), err)
				}
				for _, op := range ops {
					if op.Path != "/spec/valuesFrom/-" {
						continue
					}
					at := types.NamespacedName{Namespace: str(u, "spec", "targetNamespace"), Name: op.Value.Name}
					switch {
					case slices.Contains(p.ExistingSecrets, at):
						existing++
					case slices.Contains(keys[at], op.Value.GetValuesKey()):
						rendered++
					default:
						t.Errorf("%s: %s adds Secret %s (key %s) to HelmRelease %s's valuesFrom, which the plan neither renders nor lists as existing: %v",
							p.Config, str(u, "metadata", "name"), at, op.Value.GetValuesKey(), str(m, "target", "name"), p.ExistingSecrets)
					}
				}
			}
		}
	}
	if rendered == 0 || existing == 0 {
		t.Errorf("valuesFrom Secrets seen: %d rendered, %d existing; the corpus should hold both", rendered, existing)
	}
}

// buildRelease builds tree at dir as Flux builds Kustomization k there, and
// returns the one HelmRelease the build yields.
func buildRelease(t *testing.T, tree fluxbuild.Tree, dir string, k *kustomizev1.Kustomization) helmv2.HelmRelease {
	t.Helper()
	r := buildAs(t, tree, dir, k)
	if len(r.Objects) != 1 {
		t.Fatalf("%s builds %v", k.Name, ids(r))
	}
	var hr helmv2.HelmRelease
	raw, _ := sigsyaml.Marshal(r.Objects[0].Body)
	if err := sigsyaml.Unmarshal(raw, &hr); err != nil {
		t.Fatal(err)
	}
	return hr
}
