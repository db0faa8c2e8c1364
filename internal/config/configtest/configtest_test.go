package configtest

import (
	"reflect"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// TestValue reads fields by path: through nil pointers absent, else the
// value (a pointer's element) with its own type.
func TestValue(t *testing.T) {
	five := 5
	c := &config.Config{SchemaVersion: 1}
	c.OpenCenter.Infrastructure.Provider = config.ProviderKind
	c.OpenCenter.Services.Keycloak = &config.Keycloak{
		Sourced:     config.Sourced{ServiceCommon: config.ServiceCommon{Enabled: true, Namespace: "iam"}},
		MaxReplicas: &five,
	}
	for _, tc := range []struct {
		path string
		want any
		ok   bool
	}{
		{"schema_version", 1, true},
		{"opencenter.infrastructure.provider", config.ProviderKind, true},
		{"opencenter.services.keycloak.enabled", true, true},
		{"opencenter.services.keycloak.namespace", "iam", true},
		{"opencenter.services.keycloak.max_replicas", 5, true},
		{"opencenter.services.keycloak.instances", nil, false},
		{"opencenter.services.keycloak.backup_enabled", false, true},
		{"opencenter.services.loki.storage", nil, false},
		{"opencenter.gitops.flux.interval", "", true},
		{"opencenter.services.keycloak.no_such_key", nil, false},
		{"opencenter.services.gateway.listeners[].hostname", nil, false},
	} {
		got, ok := Value(c, tc.path)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Value(%s) = %#v, %v; want %#v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFields lists the paths of the config as the field index writes them.
func TestFields(t *testing.T) {
	types := map[string]string{}
	for _, f := range Fields() {
		if _, dup := types[f.Path]; dup {
			t.Errorf("%s listed twice", f.Path)
		}
		types[f.Path] = f.Type.String()
	}
	for path, want := range map[string]string{
		"schema_version":                                           "int",
		"opencenter.infrastructure.provider":                       "config.Provider",
		"opencenter.services.keycloak":                             "*config.Keycloak",
		"opencenter.services.keycloak.enabled":                     "bool",
		"opencenter.services.keycloak.max_replicas":                "*int",
		"opencenter.services.keycloak.source.repo":                 "string",
		"opencenter.services.gateway.listeners":                    "[]config.GatewayListener",
		"opencenter.services.gateway.listeners[].hostname":         "string",
		"opencenter.meta.labels":                                   "map[string]string",
		"secrets.services.loki.access_key_id":                      "string",
		"opencenter.gitops.overlay_units.customer_managed.enabled": "bool",
	} {
		if got, ok := types[path]; !ok || got != want {
			t.Errorf("%s: type %q (listed %v), want %q", path, got, ok, want)
		}
	}
	if _, ok := types["opencenter.services.calico.source"]; ok {
		t.Error("calico, which has no source, lists one")
	}
}
