package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/fixturekey"
)

// importCase is the config openCenter-cli's cluster init wrote for
// openstack-default and an empty repository to import it into.
func importCase(t *testing.T) (src, repo string) {
	t.Helper()
	src, err := filepath.Abs("../../testdata/import/opencenter-cli/openstack-default.yaml")
	if err != nil {
		t.Fatal(err)
	}
	repo = t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return src, repo
}

// TestImport: an openCenter-cli init config imports into a repository
// with a .sops.yaml rule, its secrets encrypted, its override_values in
// local/values.yaml, with the report; without a rule, or over an existing
// config, import writes nothing and exits 2.
func TestImport(t *testing.T) {
	src, repo := importCase(t)
	if code, _, stderr := runCLI("import", src, "--repo", repo); code != 2 || !strings.Contains(stderr, "would be written in plaintext") {
		t.Fatalf("without .sops.yaml: exit %d, stderr %s; want 2 and the plaintext refusal", code, stderr)
	}
	if entries, _ := os.ReadDir(repo); len(entries) != 1 {
		t.Fatalf("a refused import wrote %d entries", len(entries)-1)
	}
	sopsRules, err := os.ReadFile("../../testdata/fixture/.sops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules := strings.Replace(string(sopsRules), `\.k8s-[a-z0-9-]+-config\.yaml$`, `\.[a-z0-9-]+-config\.yaml$`, 1)
	if err := os.WriteFile(filepath.Join(repo, ".sops.yaml"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("import", src, "--repo", repo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"wrote " + filepath.Join(repo, ".os-dev-config.yaml"), "to decide (12)", "opencenter.gitops.repository.url",
		"derived from what openCenter-cli renders (25):", "opencenter.services.keycloak.instances: 3 (Keycloak's instances)",
		"opencenter.services.calico.adoption_mode: external: openCenter-cli renders Calico but lists its Flux unit in no kustomization",
		"opencenter.services.etcd-backup: not enabled", "75 rendering keys at openCenter-cli's defaults left out", "Flux Kustomization envoy-gateway-api-base (the Envoy Gateway HelmRelease, and with it the Gateway of every published service): opencenter renders none of that name; set suspend: true in its file",
		"not modelled by opencenter, not written", "metadata.created_by: tester", "secrets.sops_age_key_file: (secret)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(filepath.Join(repo, ".os-dev-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// init's generated Grafana password, the one secret it wrote
	const grafana = "l6VeZoL1Vz2JpPZL"
	if strings.Contains(string(data), grafana) || strings.Contains(stdout, grafana) {
		t.Errorf("the Grafana password is in plaintext in the config or the report")
	}
	plain, err := fixturekey.Decrypt(data)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(plain), "grafana_admin_password: "+grafana) {
		t.Errorf("decrypted config lacks the Grafana password under secrets.services.kube-prometheus-stack:\n%s", plain)
	}
	values, err := os.ReadFile(filepath.Join(repo, "applications/overlays/os-dev/services/postgres-operator/local/values.yaml"))
	if err != nil || !strings.Contains(string(values), "workers: 2") {
		t.Errorf("postgres-operator local/values.yaml: %q, %v", values, err)
	}
	if code, _, stderr := runCLI("import", src, "--repo", repo); code != 2 || !strings.Contains(stderr, "exists: not overwriting it") {
		t.Errorf("again: exit %d, %s; want 2, not overwriting", code, stderr)
	}

	if !strings.Contains(string(data), "    overlay_units:\n      sops:\n        enabled: true\n") {
		t.Errorf("the config does not encrypt the overlay's Secrets for the same rule:\n%s", data)
	}
}

// TestImportAgeRecipient: --age-recipient writes a .sops.yaml creation
// rule for a repository that has none and encrypts for it; it is refused
// where a rule names others, and for a key that is not one.
func TestImportAgeRecipient(t *testing.T) {
	src, repo := importCase(t)
	ids, err := age.ParseIdentities(bytes.NewReader(mustRead(t, fixturekey.Path())))
	if err != nil || len(ids) == 0 {
		t.Fatalf("the fixture key: %v", err)
	}
	recipient := ids[0].(*age.X25519Identity).Recipient().String()
	if code, _, stderr := runCLI("import", src, "--repo", repo, "--age-recipient", "age1nope"); code != 2 || !strings.Contains(stderr, "--age-recipient age1nope") {
		t.Fatalf("a malformed recipient: exit %d, %s", code, stderr)
	}
	if entries, _ := os.ReadDir(repo); len(entries) != 1 {
		t.Fatalf("a refused import wrote %d entries", len(entries)-1)
	}
	code, stdout, stderr := runCLI("import", src, "--repo", repo, "--age-recipient", recipient, "--quiet")
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("import --quiet: exit %d, stdout %q, stderr %q; want 0 and nothing printed", code, stdout, stderr)
	}
	rules, err := os.ReadFile(filepath.Join(repo, ".sops.yaml"))
	if err != nil || !strings.Contains(string(rules), "age: "+recipient+"\n") {
		t.Fatalf(".sops.yaml: %v\n%s", err, rules)
	}
	plain, err := fixturekey.Decrypt(mustRead(t, filepath.Join(repo, ".os-dev-config.yaml")))
	if err != nil || !strings.Contains(string(plain), "grafana_admin_password: ") {
		t.Fatalf("the config does not decrypt with the recipient's key: %v", err)
	}
	os.Remove(filepath.Join(repo, ".os-dev-config.yaml"))
	os.RemoveAll(filepath.Join(repo, "applications"))
	other := "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"
	if code, _, stderr := runCLI("import", src, "--repo", repo, "--age-recipient", other); code != 2 || !strings.Contains(stderr, "change its rule, not --age-recipient") {
		t.Errorf("another recipient than the rule's: exit %d, %s", code, stderr)
	}
}
