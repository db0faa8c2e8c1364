package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"filippo.io/age"
	"github.com/sebdah/goldie/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// runCLI runs the CLI in-process and returns exit code, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	return runCLIWith("", args...)
}

// runCLIWith is runCLI with stdin holding input.
func runCLIWith(input string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(input), &out, &errb)
	outputs.Lock()
	outputs.all = append(outputs.all, strings.Join(args, " ")+"\n"+out.String()+errb.String())
	outputs.Unlock()
	return code, out.String(), errb.String()
}

// cliEnv, set, makes the test binary run as the CLI (os.Args[0] args...).
const cliEnv = "OPENCENTER_TEST_CLI"

// outputs records what every CLI invocation of the suite printed.
var outputs struct {
	sync.Mutex
	all []string
}

// TestMain runs the suite with the fixture's TEST-ONLY key, then scans the
// stdout and stderr of every CLI invocation for the fixture's secret values:
// no command may print one.
func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) != "" {
		// The test binary run as the CLI, for tests that need a process.
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	cleanup, err := fixturekey.Use()
	if err != nil {
		panic(err)
	}
	code := m.Run()
	cleanup()
	if code == 0 {
		if leaks := leakedSecrets(); len(leaks) > 0 {
			fmt.Fprintln(os.Stderr, "FAIL: secret values printed:\n"+strings.Join(leaks, "\n"))
			code = 1
		}
	}
	os.Exit(code)
}

// leakedSecrets returns the fixture's secret values found in any output.
func leakedSecrets() []string {
	files, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(files) == 0 {
		return []string{"cannot read the fixture's secrets: no fixture configs"}
	}
	var values []string
	for _, f := range files {
		data, _ := os.ReadFile(f)
		plain, err := fixturekey.Decrypt(data)
		if err != nil {
			return []string{f + ": " + err.Error()}
		}
		var doc struct {
			Secrets any `json:"secrets"`
		}
		if err := sigsyaml.Unmarshal(plain, &doc); err != nil {
			return []string{f + ": " + err.Error()}
		}
		values = appendLeaves(values, doc.Secrets)
	}
	var leaks []string
	outputs.Lock()
	defer outputs.Unlock()
	for _, v := range values {
		for _, o := range outputs.all {
			if strings.Contains(o, v) {
				leaks = append(leaks, fmt.Sprintf("%q in the output of: %s", v, strings.SplitN(o, "\n", 2)[0]))
				break
			}
		}
	}
	return leaks
}

func appendLeaves(out []string, v any) []string {
	switch v := v.(type) {
	case map[string]any:
		for _, c := range v {
			out = appendLeaves(out, c)
		}
	case []any:
		for _, c := range v {
			out = appendLeaves(out, c)
		}
	case string:
		// Every line of a multi-line value (an SSH key) is a value of its own.
		for _, line := range strings.Split(v, "\n") {
			if len(strings.TrimSpace(line)) >= 8 {
				out = append(out, strings.TrimSpace(line))
			}
		}
	}
	return out
}

// TestInvalidConfigs: every file in testdata/invalid exits 2 with exactly
// its golden stderr (refresh with go test ./... -update).
func TestInvalidConfigs(t *testing.T) {
	t.Chdir("../..")
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	hidden, _ := filepath.Glob("testdata/invalid/.*.yaml")
	files = append(files, hidden...)
	if len(files) < 20 {
		t.Fatalf("expected the invalid corpus in testdata/invalid, found %d files", len(files))
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/invalid"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI("validate", f)
			if code != exitBadInput {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout should be empty, got %q", stdout)
			}
			if !strings.HasPrefix(stderr, f+":") {
				t.Errorf("every error names the file first; got:\n%s", stderr)
			}
			g.Assert(t, name, []byte(stderr))
			// validate runs every check render runs before writing: same errors, same order.
			rcode, _, rstderr := runCLI("render", "--check", "--repo", t.TempDir(), f)
			if rcode != code || rstderr != stderr {
				t.Errorf("render --check disagrees with validate: exit %d, stderr:\n%s", rcode, rstderr)
			}
		})
	}
}

// TestFixtureValidates: the fixture's secrets are encrypted, so it validates
// without the plaintext flag, and without a key too; each line says whether
// the secrets were checked, and --require-keys makes an unchecked one an
// error.
func TestFixtureValidates(t *testing.T) {
	code, stdout, stderr := runCLI("validate", "--repo", "../../testdata/fixture")
	if code != 0 || strings.Count(stdout, ": valid (secrets decrypted and checked)\n") != 5 || strings.Contains(stderr, "plaintext") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	const recipient = "age18tjucsprhh3rqntyzsfmt28p3uctwtru93xcklk3zwsjpd5mlszszlx9j4"
	missing := filepath.Join(t.TempDir(), "no-such-key")
	wrong := filepath.Join(t.TempDir(), "other.agekey")
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(wrong, []byte(id.String()+"\n"), 0o600)
	for _, c := range []struct{ keyFile, why string }{
		{missing, "$SOPS_AGE_KEY_FILE names " + missing + ", which cannot be read: no such file or directory"},
		{wrong, "no age key of yours matches"},
	} {
		t.Setenv(sops.KeyFileEnv, c.keyFile)
		want := ": valid, but its secrets were not checked: " + c.why + " (they are encrypted for " + recipient + ")\n"
		if code, stdout, stderr := runCLI("validate", "--repo", "../../testdata/fixture"); code != 0 || strings.Count(stdout, want) != 5 {
			t.Fatalf("key file %s: exit %d\nstdout:\n%s\nstderr:\n%s", c.keyFile, code, stdout, stderr)
		}
		code, stdout, stderr := runCLI("validate", "--require-keys", "--repo", "../../testdata/fixture")
		if code != exitBadInput || stdout != "" || strings.Count(stderr, "sops: --require-keys: the secrets were not checked: "+c.why+"\n") != 5 {
			t.Fatalf("--require-keys, key file %s: exit %d\nstdout:\n%s\nstderr:\n%s", c.keyFile, code, stdout, stderr)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"render", "--only", "no-such-unit"}, {"validate", "--repo", t.TempDir()}, {"render", "--check", "--diff", "x.yaml"}} {
		if code, _, stderr := runCLI(args...); code != exitBadInput || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
}

// copyFixtureConfigs makes a repository holding the fixture's configs.
func copyFixtureConfigs(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	files, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

func TestRenderExitCodes(t *testing.T) {
	repo := copyFixtureConfigs(t)

	// The fixture's secrets are encrypted, and so is what is rendered from them.
	code, stdout, stderr := runCLI("render", "--repo", repo)
	if code != 0 || strings.Count(stdout, "applications/overlays/") != 5 || strings.Contains(stderr, "warning:") {
		t.Fatalf("render: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI("render", "--repo", repo, "--check"); code != 0 || stdout != "" {
		t.Fatalf("--check after a render: exit %d, %q", code, stdout)
	}
	if code, stdout, _ := runCLI("render", "--repo", repo); code != 0 || strings.Count(stdout, " 0 created, 0 updated, 0 deleted") != 5 {
		t.Fatalf("a second render writes nothing, encrypted files included: exit %d\n%s", code, stdout)
	}
	// Change a config: --check and --diff report it, exit 1, write nothing.
	cfg := filepath.Join(repo, ".k8s-prod-config.yaml")
	b, _ := os.ReadFile(cfg)
	if !bytes.Contains(b, []byte("interval: ")) { // outside secrets: (mac_only_encrypted)
		t.Fatal("the prod fixture should set gitops.flux.interval")
	}
	changed := bytes.Replace(b, []byte("interval: "), []byte("interval: 7m #"), 1)
	os.WriteFile(cfg, changed, 0o644)
	code, stdout, _ = runCLI("render", "--repo", repo, "--check", cfg)
	if code != exitDiffers || !strings.Contains(stdout, "update applications/overlays/k8s-prod/") {
		t.Fatalf("--check after a change: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI("render", "--repo", repo, "--diff", cfg)
	if code != exitDiffers || !strings.Contains(stdout, "+  interval: 7m0s") || !strings.Contains(stdout, "--- a/applications/overlays/k8s-prod/") {
		t.Fatalf("--diff: exit %d\n%s", code, stdout)
	}

	// A foreign file under an owned path: exit 3, listed, intact.
	foreign := filepath.Join(repo, "applications/overlays/k8s-prod/services/README.md")
	os.WriteFile(foreign, []byte("mine\n"), 0o644)
	code, _, stderr = runCLI("render", "--repo", repo, cfg)
	if code != exitRefused || !strings.Contains(stderr, "services/README.md: foreign") {
		t.Fatalf("foreign file: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Fatal("the foreign file was touched")
	}
	if code, _, stderr = runCLI("render", "--repo", repo, "--force", cfg); code != 0 {
		t.Fatalf("--force: exit %d\n%s", code, stderr)
	}
}
