package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/toolcheck"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// moduleDir returns the directory of a module version in the module cache,
// downloading it through the module proxy when it is not there.
func moduleDir(mod, version string) (string, error) {
	moduleDirs.Lock()
	defer moduleDirs.Unlock()
	key := mod + "@" + version
	if d, ok := moduleDirs.m[key]; ok {
		return d, nil
	}
	out, err := exec.Command("go", "mod", "download", "-json", key).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil && err == nil {
		err = jerr
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", key, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", key, err)
	}
	moduleDirs.m[key] = info.Dir
	return info.Dir, nil
}

var moduleDirs = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// toolVersion reads the version of mod that a tools/e2e module pins.
func toolVersion(repo, tool, mod string) (string, error) {
	data, err := os.ReadFile(filepath.Join(repo, "tools", "e2e", tool, "go.mod"))
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(f) >= 2 && f[0] == mod {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("tools/e2e/%s/go.mod requires no %s", tool, mod)
}

// FluxCRDs are the CRDs of the three controllers, from their modules at
// the versions tools/e2e pins: what flux bootstrap's gotk-components.yaml
// installs for them.
func FluxCRDs(repo string) ([][]byte, error) {
	var out [][]byte
	for _, c := range []string{"source-controller", "kustomize-controller", "helm-controller"} {
		mod := "github.com/fluxcd/" + c
		v, err := toolVersion(repo, c, mod)
		if err != nil {
			return nil, err
		}
		dir, err := moduleDir(mod, v)
		if err != nil {
			return nil, err
		}
		files, err := filepath.Glob(filepath.Join(dir, "config", "crd", "bases", "*.yaml"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s@%s has no config/crd/bases/*.yaml", mod, v)
		}
		slices.Sort(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, data)
		}
	}
	return out, nil
}

// moduleCRDs are CRDs of charts whose descriptor names none, of kinds
// later units create, from their project's module.
var moduleCRDs = map[string]struct{ Module, Version, Glob, Why string }{
	// The base's kyverno chart 3.6.0 is Kyverno v1.16.0, which the module
	// proxy does not serve (403); v1.18.2 is the nearest it does.
	"kyverno": {"github.com/kyverno/kyverno", "v1.18.2", "config/crds/kyverno/kyverno.io_clusterpolicies.yaml",
		"Kyverno v1.16.0 (chart 3.6.0) is not on the module proxy; v1.18.2's ClusterPolicy CRD"},
}

// permissiveCRDs are kinds later units create whose real CRDs no module the
// proxy serves holds: the stand-in chart installs a CRD that accepts any
// spec, so the unit applies, unvalidated. Each says why.
var permissiveCRDs = map[string][]struct{ Group, Kind, Plural, Scope, Why string }{
	"postgres-operator": {{"acid.zalan.do", "postgresql", "postgresqls", "Namespaced",
		"github.com/zalando/postgres-operator is not on the module proxy (403), and the project keeps no copy of its CRD"}},
}

// ChartCRDs returns the CRDs the stand-in of chart carries, and notes on
// those that are not the chart's own: those the catalog's charts of that
// name list (crds.schemas in the descriptors), then moduleCRDs' and
// permissiveCRDs'.
func ChartCRDs(chart string) (crds [][]byte, notes []string, err error) {
	for _, u := range generated.Units {
		for _, ch := range u.Charts {
			if ch.Chart != chart || ch.CRDs == nil {
				continue
			}
			for _, sc := range ch.CRDs.Schemas {
				data, err := toolcheck.ReadSchema(sc)
				if err != nil {
					return nil, nil, fmt.Errorf("unit %s: %w", u.Name, err)
				}
				crds = append(crds, data)
			}
		}
	}
	if m, ok := moduleCRDs[chart]; ok {
		dir, err := moduleDir(m.Module, m.Version)
		if err != nil {
			return nil, nil, err
		}
		files, err := filepath.Glob(filepath.Join(dir, m.Glob))
		if err != nil || len(files) == 0 {
			return nil, nil, fmt.Errorf("%s@%s: no %s", m.Module, m.Version, m.Glob)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			crds = append(crds, data)
		}
		notes = append(notes, chart+": "+m.Why)
	}
	for _, p := range permissiveCRDs[chart] {
		crds = append(crds, []byte(fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: %[3]s.%[1]s
spec:
  group: %[1]s
  scope: %[4]s
  names: {kind: %[2]s, plural: %[3]s, listKind: %[2]sList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`, p.Group, p.Kind, p.Plural, p.Scope)))
		notes = append(notes, fmt.Sprintf("%s: %s.%s gets a CRD that accepts any spec: %s", chart, p.Kind, p.Group, p.Why))
	}
	for i, c := range crds {
		if crds[i], err = untemplate(c); err != nil {
			return nil, nil, fmt.Errorf("chart %s: %w", chart, err)
		}
	}
	return crds, notes, nil
}

// untemplate drops the labels and annotations whose values are Helm
// template text, which some projects' CRD files carry (cert-manager's are
// chart templates that also parse as YAML): a chart's crds/ are applied
// as they are, not rendered.
func untemplate(data []byte) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out bytes.Buffer
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if doc == nil {
			continue
		}
		for _, f := range []string{"labels", "annotations"} {
			m, _ := field(doc, "metadata", f).(map[string]any)
			for k, v := range m {
				if s, _ := v.(string); strings.Contains(s, "{{") || strings.Contains(k, "{{") {
					delete(m, k)
				}
			}
		}
		b, err := sigsyaml.Marshal(doc)
		if err != nil {
			return nil, err
		}
		if out.Len() > 0 {
			out.WriteString("---\n")
		}
		out.Write(b)
	}
	return out.Bytes(), nil
}
