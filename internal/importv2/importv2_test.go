package importv2

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
	_ "github.com/opencenter-dev/opencenter/zz_generated" // registers the catalog config.Parse checks against
)

// base is the smallest v2 config Translate takes; each case of
// TestFieldMap adds its lines under opencenter.services or secrets.
const base = `schema_version: "2.0"
opencenter:
  meta: {name: c1, organization: acme, env: dev, region: dfw3}
  cluster:
    cluster_name: c1
    kubernetes: {subnet_pods: 10.10.0.0/16}
  infrastructure:
    provider: %s
    cloud:
      openstack:
        auth_url: https://keystone.example/v3/
        region: RegionOne
        application_credential_id: app-id
        application_credential_secret: app-secret
  gitops:
    repository: {url: "https://git.example/acme/c1.git", branch: main}
  services:
%s
secrets:
%s
`

// TestFieldMap: one case per entry of the field map the issue names.
func TestFieldMap(t *testing.T) {
	for _, tc := range []struct {
		name, provider, services, secrets string
		want                              map[string]any // output path -> value
		local                             map[string]string
		report, decide                    []string
		notDecide                         string
	}{
		{name: "loki renames and size", services: "    loki: {enabled: true, bucket_name: logs, storage_type: s3, volume_size: 50}",
			want: map[string]any{"opencenter.services.loki.bucket": "logs", "opencenter.services.loki.storage": "s3", "opencenter.services.loki.storage_size": "50Gi"}},
		{name: "cert-manager email", services: "    cert-manager: {enabled: true, email: ops@acme.example}",
			want: map[string]any{"opencenter.services.cert-manager.acme_email": "ops@acme.example"}},
		{name: "velero bucket", services: "    velero: {enabled: true, backup_bucket: backups}",
			want: map[string]any{"opencenter.services.velero.bucket": "backups"}},
		{name: "keycloak client_id", services: "    keycloak: {enabled: true, client_id: kubernetes}",
			want: map[string]any{"opencenter.services.keycloak.oidc_client_id": "kubernetes"}},
		{name: "kube-prometheus-stack sizes", services: "    kube-prometheus-stack: {enabled: true, grafana_volume_size: 20, prometheus_volume_size: 100}",
			want: map[string]any{"opencenter.services.kube-prometheus-stack.grafana_storage_size": "20Gi", "opencenter.services.kube-prometheus-stack.prometheus_storage_size": "100Gi"}},
		{name: "secrets per service move under secrets.services", services: "    loki: {enabled: true}", secrets: "  loki: {s3_access_key_id: AK, s3_secret_access_key: SK}",
			want: map[string]any{"secrets.services.loki.access_key_id": "AK", "secrets.services.loki.secret_access_key": "SK"}},
		{name: "OpenStack credentials from infrastructure", provider: "openstack", services: "    openstack-ccm: {enabled: true}",
			want: map[string]any{"opencenter.services.openstack-ccm.auth_url": "https://keystone.example/v3/", "opencenter.services.openstack-ccm.region": "RegionOne",
				"secrets.services.openstack-ccm.application_credential_id": "app-id", "secrets.services.openstack-ccm.application_credential_secret": "app-secret"}},
		{name: "pod CIDR", services: "    calico: {enabled: true}", want: map[string]any{"opencenter.services.calico.pod_cidr": "10.10.0.0/16"}},
		{name: "vsphere is vmware", provider: "vsphere", want: map[string]any{"opencenter.infrastructure.provider": "vmware"}},
		{name: "adoption mode", services: "    velero: {enabled: true, adoption_mode: deferred}", want: map[string]any{"opencenter.services.velero.adoption_mode": "deferred"}},
		{name: "override_values to local/values.yaml", services: "    postgres-operator:\n      enabled: true\n      override_values: |\n        configGeneral: {workers: 2}",
			want: map[string]any{"opencenter.services.postgres-operator.enabled": true}, local: map[string]string{"postgres-operator": "configGeneral: {workers: 2}\n"}},
		{name: "plumbing and services we lack are reported", services: "    gateway: {enabled: true, single_stage: true}\n    fluxcd: {enabled: true}",
			report: []string{"opencenter.services.fluxcd.enabled", "opencenter.services.gateway.single_stage"}},
		{name: "renamed Flux units to decide", services: "    gateway-api: {enabled: true}\n    kafka-cluster: {enabled: false}",
			decide: []string{"Flux Kustomization envoy-gateway-api-base (the Envoy Gateway HelmRelease", "Flux Kustomization envoy-gateway-api-override"}, notDecide: "strimzi"},
		{name: "placeholders are not carried", services: "    keycloak: {enabled: true}", secrets: "  keycloak: {admin_password: CHANGEME}",
			want: map[string]any{"secrets": nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.provider
			if p == "" {
				p = "kind"
			}
			sec := tc.secrets
			if sec == "" {
				sec = "  sops_age_key_file: /k"
			}
			r, err := Translate("c1.yaml", []byte(fmt.Sprintf(base, p, tc.services, sec)))
			if err != nil {
				t.Fatal(err)
			}
			for path, want := range tc.want {
				if got := at(r.Config, path); !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v, want %#v", path, got, want)
				}
			}
			for svc, want := range tc.local {
				if r.LocalValues[svc] != want {
					t.Errorf("local values of %s = %q, want %q", svc, r.LocalValues[svc], want)
				}
			}
			all := strings.Join(r.Decide, "\n")
			for _, want := range tc.decide {
				if !strings.Contains(all, want) {
					t.Errorf("to decide lacks %q:\n%s", want, all)
				}
			}
			if tc.notDecide != "" && strings.Contains(all, tc.notDecide) {
				t.Errorf("to decide names %q:\n%s", tc.notDecide, all)
			}
			for _, path := range tc.report {
				if !reported(r, path) {
					t.Errorf("%s not in the report %v", path, r.Report)
				}
			}
		})
	}
}

// TestRefused: a schema version or provider that is not openCenter-cli's
// v2 is refused, naming the key.
func TestRefused(t *testing.T) {
	for in, want := range map[string]string{
		`schema_version: "3.0"`:                "schema_version 3.0",
		fmt.Sprintf(base, "aws", "", "  k: v"): "opencenter.infrastructure.provider: aws",
		"opencenter: {meta: {name: x}}":        "opencenter.cluster.cluster_name: required",
	} {
		if _, err := Translate("c.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), "c.yaml: "+want) {
			t.Errorf("%q: error %v, want one naming %q", in, err, want)
		}
	}
}

// secretKey matches the keys under secrets: that hold a credential.
var secretKey = regexp.MustCompile(`(password|secret|token|access_key)[^.]*$`)

// TestOpenCenterCLIConfigs: every config of the test data translates, and
// no secret value reaches the report.
func TestOpenCenterCLIConfigs(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/import/opencenter-cli/*.yaml")
	if len(files) < 10 {
		t.Fatalf("found %d configs", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Translate(f, data)
		if err != nil {
			t.Fatal(err)
		}
		var in map[string]any
		if err := yaml.Unmarshal(data, &in); err != nil {
			t.Fatal(err)
		}
		secrets := map[string]bool{}
		leaves("", in["secrets"], func(p string, v any) {
			if s := fmt.Sprint(v); secretKey.MatchString(p) && !strings.HasSuffix(p, "_file") && s != Placeholder {
				secrets[s] = true
			}
		})
		for _, it := range r.Report {
			if secrets[it.Value] {
				t.Errorf("%s: the report shows the secret value of %s", f, it.Path)
			}
		}
		n := 0
		leaves("", in, func(string, any) { n++ })
		before, after := problems(f, data), problems(".c-config.yaml", yamlenc.Marshal(r.Config))
		if after >= before {
			t.Errorf("%s: %d problems loading it, %d after translation: want fewer", f, before, after)
		}
		t.Logf("%s: %d keys, %d reported, %d to decide; problems %d before, %d after", filepath.Base(f), n, len(r.Report), len(r.Decide), before, after)
	}
}

// problems counts the problems of loading data as opencenter's config.
func problems(name string, data []byte) int {
	_, err := config.Parse(name, data, config.LoadOptions{})
	var l diag.List
	if errors.As(err, &l) {
		return len(l)
	}
	if err != nil {
		return 1
	}
	return 0
}

// leaves calls f for every scalar or list under v, by dotted path.
func leaves(prefix string, v any, f func(string, any)) {
	m, ok := v.(map[string]any)
	if !ok {
		if prefix != "" {
			f(prefix, v)
		}
		return
	}
	for k, sub := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		leaves(p, sub, f)
	}
}

// at returns the value at a dotted path of m, nil if there is none.
func at(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

// reported reports whether the report lists path.
func reported(r *Result, path string) bool {
	for _, it := range r.Report {
		if it.Path == path {
			return true
		}
	}
	return false
}

// TestReportMasksSecrets: what is left under secrets: is reported by key,
// its value never shown.
func TestReportMasksSecrets(t *testing.T) {
	r, err := Translate("c1.yaml", []byte(fmt.Sprintf(base, "kind", "", "  alert_proxy: {core_account_number: \"87654321\"}")))
	if err != nil {
		t.Fatal(err)
	}
	if !reported(r, "secrets.alert_proxy.core_account_number") {
		t.Fatalf("not reported: %v", r.Report)
	}
	for _, it := range r.Report {
		if strings.Contains(it.Value, "87654321") {
			t.Errorf("%s reported with its value %q", it.Path, it.Value)
		}
	}
}
