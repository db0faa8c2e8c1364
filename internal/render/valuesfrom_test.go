package render

import (
	"slices"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"k8s.io/apimachinery/pkg/types"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// TestHarborSecretValues: the passwords of Harbor's internal database and
// registry reach the chart from a Secret, never the plaintext override: a
// Flux patch on harbor-base adds the Secret to the base HelmRelease's
// valuesFrom, after the base's own, and kustomize, run as Flux runs it,
// applies that patch to the base's manifest.
func TestHarborSecretValues(t *testing.T) {
	const values, kust = "services/harbor/harbor-values-secret.yaml", "services/harbor/kustomization.yaml"
	const harbor = `harbor: {enabled: true, hostname: harbor.lab.example.com, admin_existing_secret: harbor-admin-vault, secret_key_existing_secret: harbor-key-vault`
	cases := []struct {
		name, services, secrets string
		secret                  string // the Secret the HelmRelease reads
		existing                bool   // outside the repository
	}{
		// YAML would read them as a number and a date.
		{"secrets", harbor + "}", "harbor: {database_password: '12345678', registry_password: '2026-11-23'}", "harbor-values-secret", false},
		{"existing", harbor + ", values_existing_secret: harbor-values-vault}", "", "harbor-values-vault", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := labPlan(t, "", tc.services, tc.secrets)
			var existing []types.NamespacedName
			if tc.existing {
				existing = []types.NamespacedName{{Namespace: "harbor", Name: tc.secret}}
				if hasFile(p, values) {
					t.Errorf("%s is rendered beside values_existing_secret", values)
				}
			} else {
				docs := documents(t, values, []byte(fileText(t, p, values)))
				if len(docs) != 1 || str(docs[0], "metadata", "name") != tc.secret {
					t.Fatalf("%s: want the Secret %s, got %v", values, tc.secret, docs)
				}
				var v map[string]any
				if err := sigsyaml.Unmarshal([]byte(str(docs[0], "stringData", "values.yaml")), &v); err != nil {
					t.Fatalf("%s: values.yaml: %v", values, err)
				}
				for _, want := range [][]string{{"database", "internal", "password", "12345678"}, {"registry", "credentials", "password", "2026-11-23"}} {
					if got := fluxbuild.Field(v, want[:3]...); got != want[3] {
						t.Errorf("%s: %s is %#v, want the string %s", values, strings.Join(want[:3], "."), got, want[3])
					}
				}
				if !listed(t, p, kust, "harbor-values-secret.yaml") {
					t.Errorf("%s does not list harbor-values-secret.yaml", kust)
				}
				lacks(t, "services/harbor/helm-values/override-values.yaml", fileText(t, p, "services/harbor/helm-values/override-values.yaml"), "12345678")
			}
			if !slices.Equal(p.ExistingSecrets, existing) {
				t.Errorf("ExistingSecrets = %v, want %v", p.ExistingSecrets, existing)
			}

			var k kustomizev1.Kustomization
			if err := sigsyaml.Unmarshal([]byte(fileText(t, p, "services/fluxcd/harbor-base.yaml")), &k); err != nil {
				t.Fatal(err)
			}
			// The base's HelmRelease as 2026.01 has it (its valuesFrom, and
			// no namespace on the Secrets), built at the Flux unit's path.
			dir := strings.TrimPrefix(k.Spec.Path, "./")
			tree := fluxbuild.Tree{
				dir + "/kustomization.yaml": []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: harbor\nresources: [helmrelease.yaml]\n"),
				dir + "/helmrelease.yaml": []byte(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: harbor, namespace: harbor}
spec:
  chart: {spec: {chart: harbor, version: 1.17.2, sourceRef: {kind: HelmRepository, name: harbor}}}
  valuesFrom:
    - {kind: Secret, name: harbor-values-base, valuesKey: values.yaml}
    - {kind: Secret, name: harbor-values-override, valuesKey: override.yaml, optional: true}
`),
			}
			r := buildAs(t, tree, dir, &k)
			if len(r.Objects) != 1 {
				t.Fatalf("%s builds %v", k.Name, ids(r))
			}
			var hr helmv2.HelmRelease
			raw, _ := sigsyaml.Marshal(r.Objects[0].Body)
			if err := sigsyaml.Unmarshal(raw, &hr); err != nil {
				t.Fatal(err)
			}
			want := []helmv2.ValuesReference{
				{Kind: "Secret", Name: "harbor-values-base", ValuesKey: "values.yaml"},
				{Kind: "Secret", Name: "harbor-values-override", ValuesKey: "override.yaml", Optional: true},
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
					for _, field := range []string{"data", "stringData"} {
						m, _ := obj[field].(map[string]any)
						for k := range m {
							keys[at] = append(keys[at], k)
						}
					}
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
