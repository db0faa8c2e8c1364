package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/model"
)

// loadModel loads the project's config model once: the descriptors in
// testdata name its fields.
var loadModel = sync.OnceValues(func() (*model.Model, error) { return model.Load("../..") })

// input reads the catalog in testdata/<name>/descriptors as the generator
// does, so that diagnostics name descriptors/<file>.
func input(t *testing.T, name string) check.Input {
	t.Helper()
	m, err := loadModel()
	if err != nil {
		t.Fatalf("loading the config model: %v", err)
	}
	root := filepath.Join("testdata", name)
	descs, failed, err := descriptor.LoadDir(root, "descriptors")
	if err != nil {
		t.Fatal(err)
	}
	tmpls, err := descriptor.Templates(root, "descriptors")
	if err != nil {
		t.Fatal(err)
	}
	return check.Input{
		Model:       m,
		Descriptors: descs,
		Dir:         "descriptors",
		Templates:   tmpls,
		Failed:      failed,
		ReadTemplate: func(rel string) (string, error) {
			b, err := os.ReadFile(filepath.Join(root, "descriptors", "files", rel))
			return string(b), err
		},
	}
}

var diagLine = regexp.MustCompile(`^descriptors/\S+:\d+:\d+: \S`)

// TestDiagnostics checks a catalog with four mistakes in three files: a
// field path with a typo, a dependency cycle between two units' Flux
// units, two units rendering the same output path, and a file no unit
// owns. Check reports all four at once, sorted, each at its file:line:col
// (testdata/mistakes.golden).
func TestDiagnostics(t *testing.T) {
	_, err := check.Check(input(t, "mistakes"))
	if err == nil {
		t.Fatal("no error; want the four mistakes of testdata/mistakes")
	}
	msg := err.Error()
	lines := strings.Split(msg, "\n")
	if len(lines) != 4 {
		t.Errorf("%d diagnostics, want 4:\n%s", len(lines), msg)
	}
	for _, l := range lines {
		if !diagLine.MatchString(l) {
			t.Errorf("diagnostic not of the form descriptors/<file>:LINE:COL: message:\n%s", l)
		}
	}
	goldie.New(t, goldie.WithNameSuffix(".golden")).Assert(t, "mistakes", []byte(msg+"\n"))
}

// TestStandard checks the expansion of the standard service pattern: the
// gate on the service's enabled field, the base source, the base and
// override Flux units (the descriptor's own base unit merged over the
// pattern's), the default root, the builtin kustomization, and a
// template reading .Secrets marked secret (testdata/standard.golden).
func TestStandard(t *testing.T) {
	units, err := check.Check(input(t, "standard"))
	if err != nil {
		t.Fatalf("checking testdata/standard:\n%v", err)
	}
	var b strings.Builder
	for _, u := range units {
		describe(&b, u)
	}
	goldie.New(t, goldie.WithNameSuffix(".golden")).Assert(t, "standard", []byte(b.String()))
}

// describe writes what the emitters read of a checked unit, one fact a line.
func describe(b *strings.Builder, u *check.Unit) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	w("unit %s (layer %s, root %q)", u.Name, u.Layer, u.Root)
	for _, g := range u.Gate {
		w("  gate: %s", g.Text)
	}
	if u.ServiceNode != nil {
		w("  service %s at %s, namespace %s", u.ServiceKey, u.ServiceNode.Path, u.Namespace)
	}
	if u.SecretsNode != nil {
		w("  secrets at %s", u.SecretsNode.Path)
	}
	if u.HelmRelease != "" {
		w("  HelmRelease %s, values Secret %s", u.HelmRelease, u.ValuesSecret)
	}
	for _, s := range u.Sources {
		w("  source %s (repo %s)", s.Name, s.Repo)
	}
	for _, f := range u.FluxUnits {
		w("  flux unit %s: %s from %s, target namespace %q, depends on %v, wait %v", f.Name, f.Path, f.Source, f.TargetNamespace, f.DependsOn, f.Wait)
		for _, h := range f.HealthChecks {
			w("    health check %s %s %s/%s", h.APIVersion, h.Kind, h.Namespace, h.Name)
		}
	}
	for _, f := range u.Files {
		switch {
		case f.Builtin != "":
			w("  file %s: builtin %s", f.Out, f.Builtin)
		case f.IsTemplate:
			w("  file %s: template %s compiled to %s, secret %v", f.Out, f.Template, f.Compiled.Func, f.Secret)
		default:
			w("  file %s: static %s", f.Out, f.Template)
		}
		if f.When != nil {
			w("    when %s", f.When.Text)
		}
	}
}
