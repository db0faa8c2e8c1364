package generate

import (
	"reflect"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/config/configtest"
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

// TestGeneratedFieldIndex holds the field index to the config types, read
// by reflection independently of the generator: every path of the config
// is listed once, in declaration order, with its Go type; a field's kind
// follows from that type.
func TestGeneratedFieldIndex(t *testing.T) {
	want := configtest.Fields()
	if len(generated.Fields) != len(want) {
		t.Errorf("the field index has %d paths, the config types %d", len(generated.Fields), len(want))
	}
	kinds := map[reflect.Kind]catalog.Kind{
		reflect.String: catalog.KindString, reflect.Bool: catalog.KindBool, reflect.Int: catalog.KindInt,
		reflect.Float64: catalog.KindNumber, reflect.Struct: catalog.KindObject, reflect.Slice: catalog.KindList, reflect.Map: catalog.KindMap,
	}
	for i, f := range generated.Fields {
		if i >= len(want) || f.Path != want[i].Path {
			t.Fatalf("field %d of the index is %s, the config types' %v", i, f.Path, want[min(i, len(want)-1)].Path)
		}
		typ := want[i].Type
		if f.GoType != typ.String() {
			t.Errorf("%s: GoType %q, want %q", f.Path, f.GoType, typ)
		}
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if k, ok := kinds[typ.Kind()]; !ok || f.Kind != k {
			t.Errorf("%s: kind %s, want the kind of %s", f.Path, f.Kind, typ)
		}
	}
}
