package plan

import (
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// fluxSpecs returns the spec of every Flux Kustomization of a plan, by name.
func fluxSpecs(t *testing.T, p *Plan) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, f := range p.Files {
		if !strings.Contains(f.Path, "/fluxcd/") {
			continue
		}
		for _, d := range documents(t, f.Path, f.Data) {
			if d["kind"] == "Kustomization" && strings.HasPrefix(str(d, "apiVersion"), "kustomize.toolkit.fluxcd.io/") {
				out[str(d, "metadata", "name")], _ = d["spec"].(map[string]any)
			}
		}
	}
	return out
}

// dependsOn lists a Flux Kustomization spec's dependsOn names.
func dependsOn(spec map[string]any) []string {
	var names []string
	deps, _ := spec["dependsOn"].([]any)
	for _, d := range deps {
		names = append(names, str(d.(map[string]any), "name"))
	}
	return names
}

func TestAdoptionModes(t *testing.T) {
	withModes := func(modes map[string]config.AdoptionMode) *Plan {
		f := loadConfig(t, "testdata/configs/keycloak.yaml")
		c := *f.Config
		s := c.OpenCenter.Services
		for svc, m := range modes {
			var sc *config.ServiceCommon
			switch svc {
			case "cert-manager":
				cm := *s.CertManager
				s.CertManager, sc = &cm, &cm.ServiceCommon
			case "postgres-operator":
				po := *s.PostgresOperator
				s.PostgresOperator, sc = &po, &po.ServiceCommon
			case "keycloak":
				kc := *s.Keycloak
				s.Keycloak, sc = &kc, &kc.ServiceCommon
			case "olm":
				o := *s.OLM
				s.OLM, sc = &o, &o.ServiceCommon
			}
			sc.AdoptionMode = m
		}
		c.OpenCenter.Services = s
		f.Config = &c
		p, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatalf("modes %v:\n%v", modes, err)
		}
		return p
	}
	managed := fluxSpecs(t, withModes(nil))
	for name, spec := range managed {
		if spec["force"] != nil || spec["suspend"] != nil {
			t.Errorf("managed: %s sets force %v, suspend %v; want neither", name, spec["force"], spec["suspend"])
		}
	}

	t.Run("sync and takeover", func(t *testing.T) {
		got := fluxSpecs(t, withModes(map[string]config.AdoptionMode{"postgres-operator": config.AdoptionSync, "keycloak": config.AdoptionTakeover}))
		for _, name := range []string{"postgres-operator-base", "postgres-operator-override", "postgres-operator-namespace"} {
			if got[name]["force"] != nil || got[name]["suspend"] != nil {
				t.Errorf("sync: %s sets force %v, suspend %v; want neither (Flux's defaults)", name, got[name]["force"], got[name]["suspend"])
			}
		}
		for _, name := range []string{"keycloak-postgres", "keycloak-operator", "keycloak-cr", "oidc-rbac"} {
			if got[name]["force"] != true || got[name]["suspend"] != nil {
				t.Errorf("takeover: %s sets force %v, suspend %v; want force true", name, got[name]["force"], got[name]["suspend"])
			}
		}
		if got["cert-manager-base"]["force"] != nil {
			t.Error("takeover of keycloak forces cert-manager-base too")
		}
	})

	t.Run("deferred", func(t *testing.T) {
		got := fluxSpecs(t, withModes(map[string]config.AdoptionMode{"keycloak": config.AdoptionDeferred}))
		for _, name := range []string{"keycloak-postgres", "keycloak-operator", "keycloak-cr", "oidc-rbac"} {
			if got[name]["suspend"] != true || got[name]["force"] != nil {
				t.Errorf("deferred: %s sets suspend %v, force %v; want suspend true", name, got[name]["suspend"], got[name]["force"])
			}
		}
		if got["postgres-operator-base"]["suspend"] != nil {
			t.Error("deferring keycloak suspends postgres-operator-base too")
		}
	})

	t.Run("external", func(t *testing.T) {
		p := withModes(map[string]config.AdoptionMode{"postgres-operator": config.AdoptionExternal, "cert-manager": config.AdoptionExternal})
		for _, f := range p.Files {
			if f.Unit == "postgres-operator" || f.Unit == "cert-manager" {
				t.Errorf("external: %s of unit %s rendered", f.Path, f.Unit)
			}
		}
		got := fluxSpecs(t, p)
		for name, spec := range got {
			for _, d := range dependsOn(spec) {
				if strings.HasPrefix(d, "postgres-operator-") || strings.HasPrefix(d, "cert-manager-") {
					t.Errorf("%s depends on %s, which is external: not rendered", name, d)
				}
			}
		}
		// keycloak requires both: the render takes them as there.
		if got["keycloak-postgres"] == nil || !slices.Contains(dependsOn(got["keycloak-postgres"]), "sources") {
			t.Errorf("keycloak-postgres: %v, want it rendered after sources alone", got["keycloak-postgres"])
		}
		for _, st := range p.Units {
			if st.Unit.Name == "postgres-operator" && (st.Active || !strings.Contains(st.Reason, "adoption_mode external")) {
				t.Errorf("postgres-operator: active %v, reason %q", st.Active, st.Reason)
			}
		}
	})

	t.Run("a requirement disabled is still refused", func(t *testing.T) {
		f := loadConfig(t, "testdata/configs/keycloak.yaml")
		c := *f.Config
		po := *c.OpenCenter.Services.PostgresOperator
		po.Enabled = false
		c.OpenCenter.Services.PostgresOperator = &po
		f.Config = &c
		_, err := Build(f, Options{})
		if err == nil || !strings.Contains(err.Error(), "keycloak requires postgres-operator, which is not active") {
			t.Errorf("err %v, want keycloak's requirement refused", err)
		}
	})
}

func TestExternalFieldsNotRequired(t *testing.T) {
	text := func(mode string) []byte {
		return []byte(`opencenter:
  meta: {name: ext}
  cluster: {cluster_name: ext, base_domain: ext.example.com}
  infrastructure: {provider: openstack}
  gitops:
    repository: {url: "https://git.example.com/platform/gitops.git"}
  services:
    velero: {enabled: true, adoption_mode: ` + mode + `}
`)
	}
	f, err := config.Parse("ext.yaml", text("external"), config.LoadOptions{})
	if err != nil {
		t.Fatalf("velero external without bucket, region or keys:\n%v", err)
	}
	p, err := Build(f, Options{})
	if err != nil {
		t.Fatalf("velero external: %v", err)
	}
	for _, pf := range p.Files {
		if pf.Unit == "velero" {
			t.Errorf("velero external renders %s", pf.Path)
		}
	}
	_, err = config.Parse("ext.yaml", text("managed"), config.LoadOptions{})
	for _, want := range []string{"opencenter.services.velero.bucket: required", "secrets.services.velero.access_key_id: required"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("velero managed: err %v, want %q", err, want)
		}
	}
}
