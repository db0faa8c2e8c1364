package generate

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const modulePath = "github.com/opencenter-dev/opencenter"

// TestRenameBreaksBuild checks that the generated code guards the config
// types at compile time: renaming the Go field behind a descriptor's
// condition (Keycloak.BackupEnabled, read by units.go) or one a template
// reads (Keycloak.DBStorageSize, read by templates.go), json tag kept, must
// break `go build ./zz_generated` in that file until the generator runs
// again.
func TestRenameBreaksBuild(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not available")
	}
	dir := t.TempDir()
	copyForBuild(t, goCmd, dir)

	if out, err := goBuild(goCmd, dir); err != nil {
		t.Fatalf("the unmodified copy does not build:\n%s", out)
	}

	services := filepath.Join(dir, "internal/config/services.go")
	src, err := os.ReadFile(services)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ field, typ, tag, reader string }{
		{"BackupEnabled", "bool", "backup_enabled", "zz_generated/units.go"},
		{"DBStorageSize", "string", "db_storage_size", "zz_generated/templates.go"},
	} {
		decl := regexp.MustCompile("(?m)^(\\s*)" + tc.field + "(\\s+" + tc.typ + "\\s+`json:\"" + tc.tag + ")")
		if n := len(decl.FindAllIndex(src, -1)); n != 1 {
			t.Fatalf("internal/config/services.go: found %d declarations of %s with json tag %s, want 1", n, tc.field, tc.tag)
		}
		if err := os.WriteFile(services, decl.ReplaceAll(src, []byte("${1}Renamed${2}")), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := goBuild(goCmd, dir)
		if err == nil {
			t.Fatalf("go build ./zz_generated succeeded after renaming Keycloak.%s: the generated code does not reference the field", tc.field)
		}
		if !regexp.MustCompile(regexp.QuoteMeta(tc.reader) + ":\\d+:\\d+: .*" + tc.field).MatchString(out) {
			t.Errorf("go build failed without naming %s in %s:\n%s", tc.field, tc.reader, out)
		}
	}
}

func goBuild(goCmd, dir string) (string, error) {
	cmd := exec.Command(goCmd, "build", "-gcflags=-e", "./zz_generated") // -e: every error, not the first ten
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// copyForBuild copies go.mod, go.sum and the module's packages that
// zz_generated needs (as go list reports them: non-test files and embedded
// files) into dir.
func copyForBuild(t *testing.T, goCmd, dir string) {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-json=ImportPath,Dir,GoFiles,EmbedFiles", "./zz_generated")
	cmd.Dir = abs
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./zz_generated: %v", err)
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(abs, f), filepath.Join(dir, f))
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	copied := 0
	for {
		var p struct {
			ImportPath, Dir     string
			GoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.ImportPath != modulePath && !strings.HasPrefix(p.ImportPath, modulePath+"/") {
			continue
		}
		rel, err := filepath.Rel(abs, p.Dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("package %s lives outside the module (%s)", p.ImportPath, p.Dir)
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			copyFile(t, filepath.Join(p.Dir, f), filepath.Join(dir, rel, f))
		}
		copied++
	}
	if copied < 3 {
		t.Fatalf("go list found %d module packages behind zz_generated, want at least zz_generated, config and table", copied)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
