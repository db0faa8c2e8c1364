package plan

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/toolcheck"
)

// TestLocalEscapeHatches: a unit's local/ directory is the user's. Its
// kustomization is listed by the unit's kustomization (kustomize builds it
// in, patches included), its values.yaml is laid over the generated Helm
// values, and no render writes, deletes or reports anything in it.
func TestLocalEscapeHatches(t *testing.T) {
	repo := t.TempDir()
	local := filepath.Join(repo, overlay.Dir("standard"), "services/postgres-operator/local")
	os.MkdirAll(local, 0o755)
	files := map[string]string{
		"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [extra.yaml]\npatches:\n  - target: {kind: Secret, name: postgres-operator-values-override}\n    patch: |-\n      - op: add\n        path: /metadata/labels\n        value: {team: dba}\n",
		"extra.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dba-notes\ndata:\n  owner: dba\n",
		"values.yaml":        "configKubernetes:\n  enable_pod_antiaffinity: true\nresources:\n  limits: {memory: 1Gi}\n",
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(local, name), []byte(text), 0o644)
	}
	f := loadConfig(t, testConfig("standard"))
	p, err := Build(f, Options{AllowPlaintextSecrets: true, Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := p.File("services/postgres-operator/kustomization.yaml")
	if !strings.Contains(string(k.Data), "components:\n- local\n") {
		t.Errorf("the unit's kustomization does not list local as a component:\n%s", k.Data)
	}
	v, _ := p.File("services/postgres-operator/helm-values/override-values.yaml")
	for _, want := range []string{"enable_pod_antiaffinity: true", "memory: 1Gi", "watched_namespace: keycloak"} {
		if !strings.Contains(string(v.Data), want) {
			t.Errorf("merged values lack %q:\n%s", want, v.Data)
		}
	}

	// kustomize builds the override directory with the user's objects and patch.
	tree := toolcheck.Tree{}
	for _, pf := range p.Files {
		tree[p.Overlay+"/"+pf.Path] = pf.Data
	}
	lf, err := overlay.LocalFiles(repo, &p.Tree)
	if err != nil || len(lf) != 3 {
		t.Fatalf("local files: %v %v", lf, err)
	}
	for k, d := range lf {
		tree[k] = d
	}
	out, err := toolcheck.Kustomize(tree, p.Overlay+"/services/postgres-operator")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: dba-notes", "team: dba"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("kustomize output lacks %q:\n%s", want, out)
		}
	}

	// A render writes around local/, --check sees nothing to do, and a
	// render without the unit leaves local/ in place.
	if err := writePlan(repo, p, overlay.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	changes, err := overlay.Diff(repo, &p.Tree, overlay.WriteOptions{})
	if err != nil || len(overlay.Differences(changes)) != 0 {
		t.Fatalf("--check after a render: %v %v", changes, err)
	}
	f.Config.OpenCenter.Services.PostgresOperator.Enabled = false
	p2, err := Build(f, Options{AllowPlaintextSecrets: true, Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	if err := writePlan(repo, p2, overlay.WriteOptions{}); err != nil {
		t.Fatalf("disabling the unit: %v", err)
	}
	for name, text := range files {
		if b, err := os.ReadFile(filepath.Join(local, name)); err != nil || string(b) != text {
			t.Errorf("local/%s was touched: %v", name, err)
		}
	}
}

// TestLocalEscapeHatchTemplateUnit: a unit whose kustomization is a template
// (etcd-backup) lists local too, in the directory its Flux unit applies: a
// Component as a component, any other kustomization as a resource.
func TestLocalEscapeHatchTemplateUnit(t *testing.T) {
	const cfg = "opencenter:\n  meta: {name: lab}\n  cluster: {cluster_name: lab}\n  infrastructure: {provider: kind}\n  gitops:\n    repository: {url: 'https://git.example.com/gitops.git'}\n  services:\n    etcd-backup: {enabled: true, bucket: etcd-snapshots, existing_secret: etcd-s3}\n"
	for _, tc := range []struct {
		name, kustomization, listed string
		want                        []string
	}{
		{"component", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [extra.yaml]\npatches:\n  - target: {kind: CronJob, name: etcd-backup}\n    patch: |-\n      - op: replace\n        path: /spec/schedule\n        value: '15 3 * * *'\n",
			"components:\n- local\n", []string{"name: etcd-notes", "schedule: 15 3 * * *"}},
		{"resource", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [extra.yaml]\n",
			"- cronjob.yaml\n- local\n", []string{"name: etcd-notes", "schedule: 0 */6 * * *"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			f, err := config.Parse("lab.yaml", []byte(cfg), config.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := Build(f, Options{AllowPlaintextSecrets: true})
			if err != nil {
				t.Fatal(err)
			}
			local := filepath.Join(repo, p.Overlay, "services/etcd-backup/local")
			os.MkdirAll(local, 0o755)
			os.WriteFile(filepath.Join(local, "kustomization.yaml"), []byte(tc.kustomization), 0o644)
			os.WriteFile(filepath.Join(local, "extra.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: etcd-notes\ndata:\n  owner: ops\n"), 0o644)
			if p, err = Build(f, Options{AllowPlaintextSecrets: true, Repo: repo}); err != nil {
				t.Fatal(err)
			}
			k, _ := p.File("services/etcd-backup/kustomization.yaml")
			wants(t, "kustomization.yaml", string(k.Data), tc.listed, "# Scheduled etcd snapshots")
			tree := toolcheck.Tree{}
			for _, pf := range p.Files {
				tree[p.Overlay+"/"+pf.Path] = pf.Data
			}
			lf, err := overlay.LocalFiles(repo, &p.Tree)
			if err != nil || len(lf) != 2 {
				t.Fatalf("local files: %v %v", lf, err)
			}
			maps.Copy(tree, lf)
			out, err := toolcheck.Kustomize(tree, p.Overlay+"/services/etcd-backup")
			if err != nil {
				t.Fatal(err)
			}
			wants(t, "kustomize output", string(out), tc.want...)
			if err := writePlan(repo, p, overlay.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if changes, err := overlay.Diff(repo, &p.Tree, overlay.WriteOptions{}); err != nil || len(overlay.Differences(changes)) != 0 {
				t.Fatalf("--check after a render: %v %v", changes, err)
			}
			if _, err := os.Stat(filepath.Join(local, "extra.yaml")); err != nil {
				t.Errorf("the render touched local/: %v", err)
			}
		})
	}
}
