package generate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// These tests run the generated package (compiled from the project's own
// descriptors) on configs built in Go.

const (
	backupWhen = "opencenter.services.keycloak.backup_enabled is true"
	hpaWhen    = "opencenter.services.keycloak.max_replicas is set"
)

func ptr[T any](v T) *T { return &v }

func generatedUnit(t *testing.T, name string) catalog.Unit {
	t.Helper()
	for _, u := range generated.Units {
		if u.Name == name {
			return u
		}
	}
	t.Fatalf("generated.Units has no unit %s", name)
	return catalog.Unit{}
}

// fileWhen returns the condition of the one file of u whose when reads text.
func fileWhen(t *testing.T, u catalog.Unit, text string) catalog.Cond {
	t.Helper()
	var found []catalog.Cond
	for _, f := range u.Files {
		if f.When.Text == text {
			found = append(found, f.When)
		}
	}
	if len(found) != 1 || found[0].Eval == nil {
		t.Fatalf("unit %s: want one file with a compiled when %q, found %d", u.Name, text, len(found))
	}
	return found[0]
}

func withKeycloak(kc *config.Keycloak) *config.Config {
	c := &config.Config{}
	c.OpenCenter.Services.Keycloak = kc
	return c
}

// TestGeneratedKeycloakConditions evaluates the keycloak unit's gate and its
// files' when conditions: a nil service pointer makes every one false
// instead of panicking; when conditions read their field whatever the gate.
func TestGeneratedKeycloakConditions(t *testing.T) {
	u := generatedUnit(t, "keycloak")
	if u.Gate.Eval == nil {
		t.Fatal("keycloak has no compiled gate")
	}
	backup, hpa := fileWhen(t, u, backupWhen), fileWhen(t, u, hpaWhen)

	absent := withKeycloak(nil)
	if u.Gate.Eval(absent) {
		t.Error("absent keycloak: gate holds")
	}
	whens := 0
	for _, f := range u.Files {
		if f.When.Eval != nil {
			whens++
			if f.When.Eval(absent) {
				t.Errorf("absent keycloak: when of %s (%s) holds", f.Path, f.When.Text)
			}
		}
	}
	for _, f := range u.FluxUnits {
		if f.When.Eval != nil {
			whens++
			if f.When.Eval(absent) {
				t.Errorf("absent keycloak: when of flux unit %s (%s) holds", f.Name, f.When.Text)
			}
		}
	}
	if whens < 2 {
		t.Errorf("keycloak has %d compiled when conditions, want at least 2", whens)
	}

	on := config.Sourced{ServiceCommon: config.ServiceCommon{Enabled: true}}
	cases := []struct {
		name              string
		kc                *config.Keycloak
		gate, backup, hpa bool
	}{
		{"present but disabled", &config.Keycloak{}, false, false, false},
		{"disabled with backup and max_replicas", &config.Keycloak{BackupEnabled: true, MaxReplicas: ptr(3)}, false, true, true},
		{"enabled", &config.Keycloak{Sourced: on}, true, false, false},
		{"enabled, backup on, max_replicas nil", &config.Keycloak{Sourced: on, BackupEnabled: true}, true, true, false},
		{"enabled, backup off, max_replicas set", &config.Keycloak{Sourced: on, MaxReplicas: ptr(5)}, true, false, true},
		{"enabled, max_replicas set to 0", &config.Keycloak{Sourced: on, MaxReplicas: ptr(0)}, true, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := withKeycloak(tc.kc)
			if got := u.Gate.Eval(c); got != tc.gate {
				t.Errorf("gate (%s) = %v, want %v", u.Gate.Text, got, tc.gate)
			}
			if got := backup.Eval(c); got != tc.backup {
				t.Errorf("%s = %v, want %v", backupWhen, got, tc.backup)
			}
			if got := hpa.Eval(c); got != tc.hpa {
				t.Errorf("%s = %v, want %v", hpaWhen, got, tc.hpa)
			}
		})
	}
}

// TestGeneratedApplyDefaults checks defaults from struct tags and from the
// keycloak descriptor's namespace, and that user values are kept.
func TestGeneratedApplyDefaults(t *testing.T) {
	c := &config.Config{}
	generated.ApplyDefaults(c)
	flux := c.OpenCenter.GitOps.Flux
	if flux.Interval != "15m" {
		t.Errorf("flux interval = %q, want 15m", flux.Interval)
	}
	if flux.Prune == nil || !*flux.Prune {
		t.Errorf("flux prune = %v, want a pointer to true", flux.Prune)
	}
	if c.OpenCenter.Services.Keycloak != nil {
		t.Error("ApplyDefaults created the absent keycloak service")
	}

	c = withKeycloak(&config.Keycloak{})
	generated.ApplyDefaults(c)
	if kc := c.OpenCenter.Services.Keycloak; kc.Namespace != "keycloak" || kc.Realm != "opencenter" {
		t.Errorf("keycloak namespace, realm = %q, %q; want keycloak, opencenter", kc.Namespace, kc.Realm)
	}

	c = withKeycloak(&config.Keycloak{Sourced: config.Sourced{ServiceCommon: config.ServiceCommon{Namespace: "iam"}}, Realm: "ops"})
	c.OpenCenter.GitOps.Flux.Interval = "5m"
	c.OpenCenter.GitOps.Flux.Prune = ptr(false)
	generated.ApplyDefaults(c)
	if kc := c.OpenCenter.Services.Keycloak; kc.Namespace != "iam" || kc.Realm != "ops" {
		t.Errorf("keycloak namespace, realm = %q, %q; want the user's iam, ops", kc.Namespace, kc.Realm)
	}
	if flux := c.OpenCenter.GitOps.Flux; flux.Interval != "5m" || flux.Prune == nil || *flux.Prune {
		t.Errorf("flux interval, prune = %q, %v; want the user's 5m, false", flux.Interval, flux.Prune)
	}
}

// goPath resolves a dotted YAML path through config.Config by json tags,
// embedded structs flattened, independently of the generator. It returns
// the leaf's Go type and whether a pointer lies on the way (leaf included).
func goPath(path string) (leaf reflect.Type, viaPtr bool, ok bool) {
	t := reflect.TypeFor[config.Config]()
	for _, seg := range strings.Split(path, ".") {
		if t.Kind() == reflect.Pointer {
			t, viaPtr = t.Elem(), true
		}
		if t.Kind() != reflect.Struct {
			return nil, false, false
		}
		f, found := jsonField(t, seg)
		if !found {
			return nil, false, false
		}
		t = f.Type
	}
	return t, viaPtr || t.Kind() == reflect.Pointer, true
}

func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			if sf, ok := jsonField(f.Type, key); ok {
				return sf, true
			}
			continue
		}
		if name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// TestGeneratedFieldAccessors runs every Get of generated.Fields on an
// empty config: a path under a nil pointer (or a nil pointer itself) is
// absent, (nil, false); any other path is present with the zero value of
// its Go type. Fields inside lists and maps have no accessor.
func TestGeneratedFieldAccessors(t *testing.T) {
	empty := &config.Config{}
	var absent, present int
	for _, f := range generated.Fields {
		inElem := strings.Contains(f.Path, "[]") || strings.Contains(f.Path, ".*")
		if inElem {
			if f.Get != nil {
				t.Errorf("%s: an element field has an accessor", f.Path)
			}
			continue
		}
		if f.Get == nil {
			t.Errorf("%s: no accessor", f.Path)
			continue
		}
		leaf, viaPtr, ok := goPath(f.Path)
		if !ok {
			t.Errorf("%s: does not resolve through config.Config by json tags", f.Path)
			continue
		}
		v, got := f.Get(empty)
		switch {
		case viaPtr:
			absent++
			if got || v != nil {
				t.Errorf("%s: Get on an empty config = (%v, %v), want (nil, false)", f.Path, v, got)
			}
		default:
			present++
			if !got || v == nil {
				t.Errorf("%s: Get on an empty config = (%v, %v), want its zero value, true", f.Path, v, got)
				continue
			}
			if rt := reflect.TypeOf(v); rt != leaf || !reflect.ValueOf(v).IsZero() {
				t.Errorf("%s: Get on an empty config = %#v of type %s, want the zero %s", f.Path, v, rt, leaf)
			}
			if f.GoType != leaf.String() {
				t.Errorf("%s: GoType %q, want %q", f.Path, f.GoType, leaf)
			}
		}
	}
	if absent < 50 || present < 20 {
		t.Errorf("checked %d absent and %d present paths: the field index looks truncated", absent, present)
	}

	// With the service present, its fields are present; a nil *int is absent.
	c := withKeycloak(&config.Keycloak{Sourced: config.Sourced{ServiceCommon: config.ServiceCommon{Namespace: "iam"}}, MaxReplicas: ptr(5)})
	want := map[string]struct {
		v  any
		ok bool
	}{
		"opencenter.services.keycloak.namespace":      {"iam", true},
		"opencenter.services.keycloak.max_replicas":   {5, true},
		"opencenter.services.keycloak.instances":      {nil, false},
		"opencenter.services.keycloak.backup_enabled": {false, true},
		"opencenter.gitops.flux.interval":             {"", true},
	}
	seen := 0
	for _, f := range generated.Fields {
		w, ok := want[f.Path]
		if !ok {
			continue
		}
		seen++
		if v, got := f.Get(c); v != w.v || got != w.ok {
			t.Errorf("%s: Get = (%#v, %v), want (%#v, %v)", f.Path, v, got, w.v, w.ok)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d paths %v in generated.Fields", seen, len(want), want)
	}
}
