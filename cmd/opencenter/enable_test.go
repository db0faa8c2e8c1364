package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/aymanbagabas/go-udiff"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// editRepo copies a config into a new repository under the name its
// cluster needs, and returns the repository and the config's path.
func editRepo(t *testing.T, src, cluster string) (string, string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	cfg := filepath.Join(repo, "."+cluster+"-config.yaml")
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return repo, cfg
}

// transcript is a golden of one edit: the command, its exit code and
// output, and the diff of the config it edited.
func transcript(args []string, code int, stdout, stderr string, before, after []byte) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "$ opencenter %s\nexit %d\n", strings.Join(args, " "), code)
	fmt.Fprintf(&b, "--- stdout\n%s--- stderr\n%s--- diff\n", stdout, stderr)
	b.WriteString(udiff.Unified("before", "after", string(before), string(after)))
	return []byte(b.String())
}

// TestEnableDisable keeps a transcript of each edit as a golden: comments,
// blank lines, flow mappings and indentation (2 spaces by hand, 4 from
// sops) are kept, only the lines shown change, and a config that would not
// validate is left byte-identical.
func TestEnableDisable(t *testing.T) {
	const lab, hand, prod = "testdata/enable/lab.yaml", "testdata/enable/hand.yaml", "../../testdata/fixture/.k8s-prod-config.yaml"
	cases := []struct {
		name, src, cluster string
		args               []string
		code               int
	}{
		{"enable-keycloak-requires", lab, "k8s-lab", []string{"enable", "keycloak"}, 0},
		{"enable-set-2-spaces", hand, "k8s-lab", []string{"enable", "headlamp", "--set", "hostname=headlamp.lab.example.com", "--set", "oidc_enabled=false"}, 0},
		{"enable-into-empty-flow", hand, "k8s-lab", []string{"enable", "alert-proxy", "--set", "source.branch=main", "--set", "account_id=42", "--set", "overseer_device_id=7",
			"--set", "alertmanager_url=http://alertmanager.monitoring.svc:9093/api/v2/alerts", "--set", "existing_secret=alert-proxy-token"}, 0},
		{"enable-missing-required", hand, "k8s-lab", []string{"enable", "harbor"}, exitBadInput},
		{"enable-set-missing-secret", hand, "k8s-lab", []string{"enable", "harbor", "--set", "hostname=harbor.lab.example.com"}, exitBadInput},
		{"enable-already", hand, "k8s-lab", []string{"enable", "calico"}, 0},
		{"disable-flow", hand, "k8s-lab", []string{"disable", "kyverno"}, 0},
		{"disable-absent", hand, "k8s-lab", []string{"disable", "harbor"}, 0},
		{"disable-required", prod, "k8s-prod", []string{"disable", "cert-manager"}, exitBadInput},
		{"disable-with-dependents", prod, "k8s-prod", []string{"disable", "cert-manager", "--with-dependents"}, 0},
		{"enable-encrypted-4-spaces", prod, "k8s-prod", []string{"enable", "longhorn", "--set", "default_replica_count=2", "--set", "data_path=/data/longhorn"}, 0},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/enable"), goldie.WithNameSuffix(".golden"))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			repo, cfg := editRepo(t, c.src, c.cluster)
			before, _ := os.ReadFile(cfg)
			code, stdout, stderr := runCLI(append(c.args, "--repo", repo)...)
			after, _ := os.ReadFile(cfg)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, stderr)
			}
			if code != 0 || strings.Contains(stdout, "nothing to change") {
				if !bytes.Equal(before, after) {
					t.Error("the config changed")
				}
			} else if code, _, stderr := runCLI("validate", "--repo", repo); code != 0 {
				t.Errorf("the edited config does not validate:\n%s", stderr)
			}
			stderr = strings.ReplaceAll(stderr, repo+string(filepath.Separator), "")
			stdout = strings.ReplaceAll(stdout, repo+string(filepath.Separator), "")
			g.Assert(t, c.name, transcript(c.args, code, stdout, stderr, before, after))
		})
	}
}

// TestEnableRequires: enable lists every unit of the requires closure it
// turned on, and they are active afterwards.
func TestEnableRequires(t *testing.T) {
	repo, cfg := editRepo(t, "testdata/enable/lab.yaml", "k8s-lab")
	code, stdout, stderr := runCLI("enable", "keycloak", "--config", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, u := range []string{"keycloak", "postgres-operator", "olm", "cert-manager", "rbac-manager"} {
		if !strings.Contains(stdout, "enabled "+u+"\n") && !strings.Contains(stdout, "enabled "+u+" (required by keycloak)\n") {
			t.Errorf("%s is not listed:\n%s", u, stdout)
		}
	}
	_, out, _ := runCLI("units", "--config", cfg)
	for _, u := range []string{"keycloak", "postgres-operator", "olm", "cert-manager", "rbac-manager"} {
		if !strings.Contains(out, "\n"+u+" ") || !lineHas(out, u+" ", "active") || lineHas(out, u+" ", "inactive") {
			t.Errorf("%s is not active:\n%s", u, out)
		}
	}
	// Once they are on, enabling again changes nothing.
	before, _ := os.ReadFile(cfg)
	if code, stdout, _ := runCLI("enable", "keycloak", "--repo", repo); code != 0 || !strings.Contains(stdout, "keycloak is already enabled: nothing to change") {
		t.Errorf("enable again: exit %d, %s", code, stdout)
	}
	if after, _ := os.ReadFile(cfg); !bytes.Equal(before, after) {
		t.Error("enabling again changed the file")
	}
}

// lineHas reports whether the line starting with prefix contains s.
func lineHas(text, prefix, s string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strings.Contains(l, s)
		}
	}
	return false
}

// TestEnableBadInput: unknown units and bad --set values exit 2 with what
// was probably meant, before the file is touched.
func TestEnableBadInput(t *testing.T) {
	repo, cfg := editRepo(t, "testdata/enable/hand.yaml", "k8s-lab")
	before, _ := os.ReadFile(cfg)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"enable", "keycloack"}, `unknown unit "keycloack" (did you mean "keycloak"?)`},
		{[]string{"disable", "calcio"}, `unknown unit "calcio" (did you mean "calico"?)`},
		{[]string{"enable", "observability"}, "observability has no switch of its own: it is active whenever one of kube-prometheus-stack, loki"},
		{[]string{"enable", "cluster"}, "cluster has no switch: it is always active"},
		{[]string{"enable", "keycloak", "--set", "hostnme=auth.example.com"}, `keycloak has no field "hostnme" (did you mean "hostname"?); 'opencenter explain services.keycloak' lists its fields`},
		{[]string{"enable", "keycloak", "--set", "source.brnach=main"}, `(did you mean "source.branch"?)`},
		{[]string{"enable", "keycloak", "--set", "instances=three"}, "--set instances=three: expected a whole number"},
		{[]string{"enable", "keycloak", "--set", "instances=1.5"}, "expected a whole number"},
		{[]string{"enable", "keycloak", "--set", "backup_enabled=yes"}, "--set backup_enabled=yes: expected true or false"},
		{[]string{"enable", "opentelemetry-kube-stack", "--set", "trace_sampling_ratio=half"}, "expected a number"},
		{[]string{"enable", "cert-manager", "--set", "dns_provider=route54"}, `unknown value: expected one of cloudflare, designate, none, route53 (did you mean "route53"?)`},
		{[]string{"enable", "keycloak", "--set", "source=main"}, "source is an object: set its fields one by one"},
		{[]string{"enable", "metallb", "--set", "ip_pools=a"}, "ip_pools is a list"},
		{[]string{"enable", "keycloak", "--set", "hostname"}, `--set "hostname": expected KEY=VALUE`},
		{[]string{"enable", "keycloak", "--set", "enabled=false"}, "--set enabled: enable sets it"},
		{[]string{"enable", "keycloak", "--set", "realm=a", "--set", "realm=b"}, "--set realm is given twice"},
		{[]string{"enable", "keycloak", "--set", "admin_password=x"}, `keycloak has no field "admin_password"`},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(append(c.args, "--repo", repo)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d\n%s\nwant %q", c.args, code, stderr, c.want)
		}
	}
	if after, _ := os.ReadFile(cfg); !bytes.Equal(before, after) {
		t.Error("bad input changed the file")
	}
	// A value with a type YAML would read differently is written quoted.
	_, cfg = editRepo(t, "testdata/enable/lab.yaml", "k8s-lab")
	if code, _, stderr := runCLI("enable", "keycloak", "--set", "realm=true", "--set", "instances=007", "--set", "hostname=auth.lab.example.com", "--config", cfg); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	f, err := config.Load(cfg, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if k := f.Config.OpenCenter.Services.Keycloak; k.Realm != "true" || *k.Instances != 7 {
		t.Errorf("realm %q, instances %d", k.Realm, *k.Instances)
	}
}

// TestEnableConfigChoice: --config defaults to the only config of --repo;
// with several, the command lists them. The edit keeps the file's mode.
func TestEnableConfigChoice(t *testing.T) {
	repo, cfg := editRepo(t, "testdata/enable/hand.yaml", "k8s-lab")
	other := filepath.Join(repo, ".k8s-two-config.yaml")
	os.WriteFile(other, []byte("opencenter: {}\n"), 0o644)
	if code, _, stderr := runCLI("enable", "loki", "--repo", repo); code != exitBadInput || !strings.Contains(stderr, "2 configs at the root of "+repo) || !strings.Contains(stderr, other) || !strings.Contains(stderr, "pass --config FILE") {
		t.Errorf("several configs: exit %d\n%s", code, stderr)
	}
	os.Chmod(cfg, 0o600)
	if code, _, stderr := runCLI("enable", "loki", "--repo", repo, "--config", cfg); code != 0 {
		t.Fatalf("--config: exit %d\n%s", code, stderr)
	}
	if info, _ := os.Stat(cfg); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after the edit", info.Mode().Perm())
	}
	if code, _, stderr := runCLI("enable", "loki", "--config", filepath.Join(repo, "missing.yaml")); code != exitBadInput {
		t.Errorf("missing config: exit %d\n%s", code, stderr)
	}
}

// TestEnableEncrypted: a config whose secrets sops encrypted with
// mac_only_encrypted is edited outside secrets: and still decrypts with its
// MAC verified; without the key it is edited all the same. Without
// mac_only_encrypted, or where sops's rules encrypt the value, the edit is
// refused and the file left as it is.
func TestEnableEncrypted(t *testing.T) {
	const prod = "../../testdata/fixture/.k8s-prod-config.yaml"
	_, cfg := editRepo(t, prod, "k8s-prod")
	before, _ := os.ReadFile(cfg)
	if code, _, stderr := runCLI("disable", "velero", "--config", cfg); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	after, _ := os.ReadFile(cfg)
	if i := bytes.Index(before, []byte("\nsecrets:\n")); i < 0 || !bytes.HasSuffix(after, before[i:]) {
		t.Error("secrets: or sops: changed")
	}
	f, err := config.Load(cfg, config.LoadOptions{})
	if err != nil {
		t.Fatalf("the edited config does not decrypt: %v", err)
	}
	if f.Encryption.DataKey == nil || f.Config.OpenCenter.Services.Velero.Enabled {
		t.Error("not decrypted, or velero still enabled")
	}
	if bin, ok := fixturekey.SopsCLI(); ok {
		cmd := exec.Command(bin, "decrypt", cfg)
		cmd.Env = []string{"HOME=" + t.TempDir(), "SOPS_DISABLE_VERSION_CHECK=1", sops.KeyFileEnv + "=" + fixturekey.Path()}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the sops CLI does not decrypt the edited config: %v\n%s", err, out)
		}
	}

	t.Run("without the key", func(t *testing.T) {
		t.Setenv(sops.KeyFileEnv, filepath.Join(t.TempDir(), "no-key"))
		if _, err := config.Load(cfg, config.LoadOptions{}); err == nil {
			t.Fatal("the config opens without a key")
		}
		if code, _, stderr := runCLI("enable", "velero", "--config", cfg); code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
	})
	if f, err := config.Load(cfg, config.LoadOptions{}); err != nil || !f.Config.OpenCenter.Services.Velero.Enabled {
		t.Fatalf("after an edit without the key: %v", err)
	}

	edited, _ := os.ReadFile(cfg)
	for _, c := range []struct{ name, from, to, want string }{
		{"mac over every value", "    mac_only_encrypted: true\n", "", "its MAC covers every value, so editing one in place would break the file: use 'opencenter secrets edit " + cfg + "', or encrypt it again with mac_only_encrypted: true"},
		{"rules encrypting the value", "    encrypted_regex: ^secrets$\n", "    encrypted_regex: ^(secrets|enabled)$\n", "sops encrypts opencenter.services.velero.enabled under this file's rules"},
	} {
		text := bytes.Replace(edited, []byte(c.from), []byte(c.to), 1)
		os.WriteFile(cfg, text, 0o644)
		code, _, stderr := runCLI("disable", "velero", "--config", cfg)
		if now, _ := os.ReadFile(cfg); code != exitRefused || !strings.Contains(stderr, c.want) || !bytes.Equal(now, text) {
			t.Errorf("%s: exit %d\n%s", c.name, code, stderr)
		}
	}
}

// TestEnableHelp keeps the --help of enable and disable as goldens.

// TestDisableOwnSwitch: a unit switched by a field of its own, not a
// service's enabled (customer-managed), is disabled where it is on; where
// the config does not mention it, disable changes nothing.
func TestDisableOwnSwitch(t *testing.T) {
	repo, cfg := editRepo(t, "../../testdata/fixture/.k8s-dev-config.yaml", "k8s-dev")
	before, _ := os.ReadFile(cfg)
	code, stdout, stderr := runCLI("disable", "customer-managed", "--repo", repo)
	after, _ := os.ReadFile(cfg)
	if code != 0 || bytes.Equal(before, after) || !strings.Contains(stdout, "disabled customer-managed") {
		t.Errorf("on: exit %d, the file changed %v\n%s%s", code, !bytes.Equal(before, after), stdout, stderr)
	}
	repo, cfg = editRepo(t, "testdata/enable/lab.yaml", "k8s-lab")
	before, _ = os.ReadFile(cfg)
	code, stdout, stderr = runCLI("disable", "customer-managed", "--repo", repo)
	after, _ = os.ReadFile(cfg)
	if code != 0 || !bytes.Equal(before, after) || !strings.Contains(stdout, "customer-managed is already disabled: nothing to change") {
		t.Errorf("not mentioned: exit %d, the file changed %v\n%s%s", code, !bytes.Equal(before, after), stdout, stderr)
	}
}

// TestEnableMendsAnInvalidConfig: on a config that does not validate yet
// (fresh from import), --set writes an edit that adds no problem and says
// how many remain, and still refuses one that adds a problem.
func TestEnableMendsAnInvalidConfig(t *testing.T) {
	src, repo := importCase(t)
	if code, _, stderr := runCLI("import", src, "--repo", repo, "--allow-plaintext-secrets"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	cfg := filepath.Join(repo, ".os-dev-config.yaml")
	problems := func() int {
		_, stdout, stderr := runCLI("validate", "--allow-plaintext-secrets", cfg)
		return strings.Count(stdout+stderr, ".os-dev-config.yaml:")
	}
	before := problems()
	code, stdout, stderr := runCLI("enable", "gateway", "--set", "tls_secret_name=os-dev-wildcard-tls", "--config", cfg)
	if code != 0 || !strings.Contains(stdout, "problems it had before remain") {
		t.Fatalf("enable --set on an invalid config: exit %d\n%s%s", code, stdout, stderr)
	}
	if after := problems(); after >= before || after == 0 {
		t.Errorf("problems: %d before the edit, %d after; want fewer, and some left", before, after)
	}
	data := mustRead(t, cfg)
	code, _, stderr = runCLI("enable", "metallb", "--config", cfg)
	if code != exitBadInput || !strings.Contains(stderr, "opencenter.services.metallb.ip_pools: required") || strings.Contains(stderr, "repository.url") {
		t.Errorf("an edit adding a problem: exit %d, want 2 naming only the new problem:\n%s", code, stderr)
	}
	if !bytes.Equal(data, mustRead(t, cfg)) {
		t.Error("a refused edit changed the config")
	}
}
