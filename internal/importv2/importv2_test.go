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
    cluster_fqdn: c1.dfw3.example.com
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
		absent                            []string  // output paths
		replace                           [2]string // in the input
		dropped                           int
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
		{name: "plumbing off openCenter-cli's defaults and services we lack are reported", services: "    gateway: {enabled: true, single_stage: false}\n    fluxcd: {enabled: true}",
			report: []string{"opencenter.services.fluxcd.enabled", "opencenter.services.gateway.single_stage"}},
		{name: "plumbing at openCenter-cli's defaults is dropped", services: "    gateway: {enabled: true, single_stage: true, namespace: gateway}\n    harbor: {enabled: false, namespace: harbor}\n    sources: {enabled: true, namespace: flux-system}",
			dropped: 5},
		{name: "base_domain is the cluster FQDN", replace: [2]string{"cluster_name: c1", "cluster_name: c1\n    base_domain: example.com"},
			want: map[string]any{"opencenter.cluster.base_domain": "c1.dfw3.example.com"}},
		{name: "hostnames derived under the FQDN", services: "    keycloak: {enabled: true}\n    headlamp: {enabled: true}\n    kube-prometheus-stack: {enabled: true}\n    harbor: {enabled: true}",
			want: map[string]any{"opencenter.services.keycloak.hostname": "auth.c1.dfw3.example.com", "opencenter.services.headlamp.hostname": "headlamp.c1.dfw3.example.com",
				"opencenter.services.headlamp.oidc_issuer_url": "https://auth.c1.dfw3.example.com/realms/opencenter", "opencenter.services.headlamp.oidc_client_id": "opencenter",
				"opencenter.services.kube-prometheus-stack.grafana_hostname": "grafana.c1.dfw3.example.com", "opencenter.services.kube-prometheus-stack.alertmanager_hostname": "alertmanager.c1.dfw3.example.com",
				"opencenter.services.harbor.hostname": "harbor.c1.dfw3.example.com"}},
		{name: "given values win over derived ones", services: "    keycloak: {enabled: true, hostname: id.example.com, instances: 2}\n    headlamp: {enabled: true}",
			want: map[string]any{"opencenter.services.keycloak.hostname": "id.example.com", "opencenter.services.keycloak.instances": 2,
				"opencenter.services.headlamp.oidc_issuer_url": "https://id.example.com/realms/opencenter"}},
		{name: "keycloak's route only with a gateway", services: "    keycloak: {enabled: true}", want: map[string]any{"opencenter.services.keycloak.gateway_route": nil}},
		{name: "keycloak as openCenter-cli renders it", services: "    keycloak: {enabled: true}\n    gateway: {enabled: true}", replace: [2]string{"provider: kind", "provider: kind\n    storage: {default_storage_class: standard}"},
			want: map[string]any{"opencenter.services.keycloak.instances": 3, "opencenter.services.keycloak.db_storage_size": "5Gi", "opencenter.services.keycloak.storage_class": "standard",
				"opencenter.services.keycloak.gateway_route": true, "opencenter.services.keycloak.oidc_client_id": "opencenter"}},
		{name: "object stores as openCenter-cli renders them", services: "    loki: {enabled: true}\n    tempo: {enabled: true}\n    mimir: {enabled: true}",
			want: map[string]any{"opencenter.services.loki.storage": "s3", "opencenter.services.loki.bucket": "c1-loki", "opencenter.services.loki.endpoint": "https://swift.api.dfw3.rackspacecloud.com",
				"opencenter.services.loki.region": "dfw3", "opencenter.services.tempo.bucket": "c1-tempo", "opencenter.services.mimir.bucket": "c1-mimir", "opencenter.services.mimir.storage": "s3"}},
		{name: "velero's bucket and region", provider: "openstack", services: "    velero: {enabled: true}",
			want:   map[string]any{"opencenter.services.velero.bucket": "c1-velero", "opencenter.services.velero.region": "RegionOne"},
			decide: []string{"opencenter.services.velero.provider: openCenter-cli's Velero ran the OpenStack plugin"}},
		{name: "kafka-cluster as openCenter-cli renders it", services: "    kafka-cluster: {enabled: true}",
			want: map[string]any{"opencenter.services.kafka-cluster.cluster_name": "kafka-cluster", "opencenter.services.kafka-cluster.kafka_version": "4.1.1", "opencenter.services.kafka-cluster.storage_size": "20Gi"}},
		{name: "the gateway keeps its name", services: "    gateway: {enabled: true}",
			want: map[string]any{"opencenter.services.gateway.name": "rmpk-gateway", "opencenter.services.gateway.namespace": "rackspace-system", "opencenter.services.gateway.gateway_class_name": "eg"}},
		{name: "vsphere-csi from the storage class and name", provider: "vmware", services: "    vsphere-csi: {enabled: true}", replace: [2]string{"provider: vmware", "provider: vmware\n    storage: {default_storage_class: vsan}"},
			want: map[string]any{"opencenter.services.vsphere-csi.cluster_id": "c1", "opencenter.services.vsphere-csi.storage_class_name": "vsan", "opencenter.services.vsphere-csi.default_storage_class": true}},
		{name: "vsphere-csi's vCenter from its secrets", provider: "vmware", services: "    vsphere-csi: {enabled: true}",
			secrets: "  vsphere_csi: {vcenter_host: vc.example.com, datacenters: DC1, port: \"8443\", insecure_flag: \"true\", datastoreurl: \"ds:///vmfs/volumes/x/\", username: u, password: pw}",
			want: map[string]any{"opencenter.services.vsphere-csi.vcenter_host": "vc.example.com", "opencenter.services.vsphere-csi.datacenter": "DC1", "opencenter.services.vsphere-csi.port": 8443,
				"opencenter.services.vsphere-csi.insecure_flag": true, "opencenter.services.vsphere-csi.datastore_url": "ds:///vmfs/volumes/x/",
				"secrets.services.vsphere-csi.username": "u", "secrets.services.vsphere-csi.password": "pw"}},
		{name: "vsphere-csi's vCenter from infrastructure when the secrets hold placeholders", provider: "vmware", services: "    vsphere-csi: {enabled: true}",
			secrets: "  vsphere_csi: {vcenter_host: CHANGEME, datacenters: CHANGEME}", replace: [2]string{"    cloud:\n", "    cloud:\n      vmware: {vcenter_server: vc2.example.com, datacenter: DC2}\n"},
			want: map[string]any{"opencenter.services.vsphere-csi.vcenter_host": "vc2.example.com", "opencenter.services.vsphere-csi.datacenter": "DC2"}, notDecide: "vcenter_host"},
		{name: "cert-manager email makes an ACME issuer", services: "    cert-manager: {enabled: true, email: ops@acme.example}",
			want: map[string]any{"opencenter.services.cert-manager.issuer": "acme"}, decide: []string{"because the config names an ACME email"}},
		{name: "loki on Swift", services: "    loki: {enabled: true, storage_type: swift, bucket_name: ignored, swift_auth_url: https://keystone.example/v3, swift_region: RegionTwo, swift_container_name: logs, swift_application_credential_id: app-id}",
			secrets: "  loki: {swift_application_credential_secret: app-secret}",
			want: map[string]any{"opencenter.services.loki.storage": "swift", "opencenter.services.loki.endpoint": "https://keystone.example/v3", "opencenter.services.loki.region": "RegionTwo",
				"opencenter.services.loki.bucket": "logs", "secrets.services.loki.access_key_id": "app-id", "secrets.services.loki.secret_access_key": "app-secret"}},
		{name: "tempo on Swift is to decide", services: "    tempo: {enabled: true, storage_type: swift}", decide: []string{"opencenter.services.tempo.storage: swift"},
			want: map[string]any{"opencenter.services.tempo.storage": "s3"}},
		{name: "a disabled service's settings are reported", services: "    tempo: {enabled: false, storage_type: swift}", report: []string{"opencenter.services.tempo.storage_type"}},
		{name: "tempo storage_type", services: "    tempo: {enabled: true, storage_type: filesystem}", want: map[string]any{"opencenter.services.tempo.storage": "filesystem"}},
		{name: "prune off is to decide", replace: [2]string{"repository: {url", "flux: {prune: false}\n    repository: {url"},
			want: map[string]any{"opencenter.gitops.flux.prune": false}, decide: []string{"opencenter.gitops.flux.prune: false, which openCenter-cli ignored"}},
		{name: "calico is external unless a mode is given", services: "    calico: {enabled: true}",
			want: map[string]any{"opencenter.services.calico.adoption_mode": "external"}, decide: []string{"opencenter.services.calico.adoption_mode: external"}},
		{name: "calico managed when the config says so", services: "    calico: {enabled: true, adoption_mode: managed}",
			want: map[string]any{"opencenter.services.calico.adoption_mode": nil}, notDecide: "calico"},
		{name: "calico encapsulation from its modes", services: "    calico: {enabled: true}", replace: [2]string{"kubernetes: {subnet_pods: 10.10.0.0/16}", "kubernetes: {network_plugin: {calico: {vxlan_mode: Never, ipip_mode: CrossSubnet}}}"},
			want: map[string]any{"opencenter.services.calico.encapsulation": "IPIPCrossSubnet", "opencenter.services.calico.pod_cidr": "10.42.0.0/16"}},
		{name: "etcd-backup that never ran is left off", services: "    etcd-backup: {enabled: true}",
			absent: []string{"opencenter.services.etcd-backup"}, decide: []string{"its etcd backups never ran"}},
		{name: "cert-manager issuer from the one Route 53 credential", services: "    cert-manager: {enabled: true}",
			secrets: "  cert_manager: {aws: {r53: {enabled: true, aws_access_key: AK, aws_secret_access_key: SK, region: us-east-2}, other: {enabled: false}}}",
			want: map[string]any{"opencenter.services.cert-manager.issuer": "acme", "opencenter.services.cert-manager.dns_provider": "route53", "opencenter.services.cert-manager.issuer_name": "letsencrypt-r53",
				"opencenter.services.cert-manager.route53_region": "us-east-2", "secrets.services.cert-manager.route53_access_key_id": "AK", "secrets.services.cert-manager.route53_secret_access_key": "SK"},
			notDecide: "cert-manager"},
		{name: "cert-manager with Designate", provider: "openstack", services: "    cert-manager: {enabled: true, dns_provider: designate}",
			want: map[string]any{"opencenter.services.cert-manager.issuer": "acme", "opencenter.services.cert-manager.dns_provider": "designate", "opencenter.services.cert-manager.issuer_name": "letsencrypt-designate",
				"opencenter.services.cert-manager.designate_auth_url": "https://keystone.example/v3/", "opencenter.services.cert-manager.designate_region": "RegionOne",
				"secrets.services.cert-manager.designate_application_credential_id": "app-id", "secrets.services.cert-manager.designate_application_credential_secret": "app-secret"},
			notDecide: "cert-manager"},
		{name: "cert-manager without a credential is to decide", services: "    cert-manager: {enabled: true}",
			absent: []string{"opencenter.services.cert-manager.issuer"}, decide: []string{"only its self-signed CA chain"}},
		{name: "sealed-secrets key renewal is a field", services: "    sealed-secrets:\n      enabled: true\n      override_values: |\n        keyrenewperiod: \"0\"",
			want: map[string]any{"opencenter.services.sealed-secrets.key_renew_period": "0"}, local: map[string]string{"sealed-secrets": ""}},
		{name: "metallb pools", services: "    metallb: {enabled: true, ip_address_pools: [{name: lan, addresses: [192.0.2.10-192.0.2.20]}]}",
			want: map[string]any{"opencenter.services.metallb.ip_pools": []any{map[string]any{"name": "lan", "addresses": []any{"192.0.2.10-192.0.2.20"}}}}},
		{name: "base repository secret", replace: [2]string{"repository: {url", "base_repo: {url: https://github.com/opencenter-cloud/openCenter-gitops-base.git, release: \"2026.01\"}\n    repository: {url"},
			want: map[string]any{"opencenter.gitops.base_repo.secret_name": "opencenter-base", "opencenter.gitops.base_repo.release": "2026.01"}},
		{name: "base repository over SSH", replace: [2]string{"repository: {url", "auth: {ssh: {private_key_path: /k}}\n    base_repo: {url: https://github.com/opencenter-cloud/openCenter-gitops-base.git}\n    repository: {url"},
			want: map[string]any{"opencenter.gitops.base_repo.url": "ssh://git@github.com/opencenter-cloud/openCenter-gitops-base.git"}},
		{name: "a service's source", services: "    kyverno: {enabled: true, source: {branch: feature}}\n    loki: {enabled: true, source: {branch: feature}}",
			want: map[string]any{"opencenter.services.kyverno.source.branch": "feature", "opencenter.services.loki.source": nil}, report: []string{"opencenter.services.loki.source.branch"}},
		{name: "one hostname for Prometheus, Alertmanager and Grafana", services: "    kube-prometheus-stack: {enabled: true, hostname: mon.acme.example}",
			want:   map[string]any{"opencenter.services.kube-prometheus-stack.grafana_hostname": "mon.acme.example", "opencenter.services.kube-prometheus-stack.alertmanager_hostname": nil},
			decide: []string{"openCenter-cli published Prometheus, Alertmanager and Grafana all at mon.acme.example"}},
		{name: "velero's ignored backup_bucket", services: "    velero: {enabled: true, backup_bucket: backups}",
			want: map[string]any{"opencenter.services.velero.bucket": "backups"}, decide: []string{"its backups went to c1-velero"}},
		{name: "customer-managed units", replace: [2]string{"repository: {url", "overlay_units: {customer_managed: {enabled: true, repository_url: \"https://git.example/acme/apps.git\", flux_name_prefix: x}}\n    repository: {url"},
			want:   map[string]any{"opencenter.gitops.overlay_units.customer_managed.enabled": true, "opencenter.gitops.overlay_units.customer_managed.interval": "5m"},
			report: []string{"opencenter.gitops.overlay_units.customer_managed.flux_name_prefix"}},
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
			in := fmt.Sprintf(base, p, tc.services, sec)
			if tc.replace[0] != "" {
				if !strings.Contains(in, tc.replace[0]) {
					t.Fatalf("the input lacks %q", tc.replace[0])
				}
				in = strings.Replace(in, tc.replace[0], tc.replace[1], 1)
			}
			r, err := Translate("c1.yaml", []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range tc.absent {
				if got := at(r.Config, path); got != nil {
					t.Errorf("%s = %#v, want none", path, got)
				}
			}
			if tc.dropped != 0 && r.Dropped != tc.dropped {
				t.Errorf("dropped %d keys at defaults, want %d (report %v)", r.Dropped, tc.dropped, r.Report)
			}
			for _, d := range r.Derived {
				if got := fmt.Sprint(at(r.Config, d.Path)); got != d.Value {
					t.Errorf("derived %s: %s, but the config holds %s", d.Path, d.Value, got)
				}
			}
			for path, want := range tc.want {
				if got := at(r.Config, path); !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v, want %#v", path, got, want)
				}
			}
			for svc, want := range tc.local {
				if got, ok := r.LocalValues[svc]; got != want || ok != (want != "") {
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
		for range 5 { // maps iterate in random order: the result must not
			again, _ := Translate(f, data)
			if !reflect.DeepEqual(again, r) {
				t.Fatalf("%s: a second translation differs", f)
			}
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

// TestEveryRename: one row per entry of the rename, size and secret
// tables, each with its own input and expected output; an entry no row
// covers fails, so a new one comes with its test.
func TestEveryRename(t *testing.T) {
	rows := []struct{ svc, in, path string }{
		{"cert-manager", "email: ops@acme.example", "acme_email"},
		{"cert-manager", "letsencrypt_server: https://acme-staging-v02.api.letsencrypt.org/directory", "acme_server"},
		{"headlamp", "hostname: hl.acme.example", "hostname"},
		{"keycloak", "hostname: id.acme.example", "hostname"},
		{"keycloak", "client_id: kube", "oidc_client_id"},
		{"keycloak", "instances: 2", "instances"},
		{"keycloak", "max_replicas: 5", "max_replicas"},
		{"keycloak", "backup_enabled: true", "backup_enabled"},
		{"keycloak", "backup_schedule: 0 4 * * *", "backup_schedule"},
		{"loki", "storage_type: swift", "storage"},
		{"loki", "bucket_name: logs", "bucket"},
		{"loki", "s3_endpoint: https://s3.acme.example", "endpoint"},
		{"loki", "s3_region: us-east-1", "region"},
		{"loki", "storage_class: fast", "storage_class"},
		{"loki", "volume_size: 50", "storage_size"},
		{"longhorn", "hostname: lh.acme.example", "hostname"},
		{"longhorn", "default_replica_count: 2", "default_replica_count"},
		{"longhorn", "default_data_path: /data/longhorn", "data_path"},
		{"tempo", "bucket_name: traces", "bucket"},
		{"tempo", "s3_endpoint: https://s3.acme.example", "endpoint"},
		{"tempo", "s3_region: us-east-1", "region"},
		{"tempo", "storage_class: fast", "storage_class"},
		{"tempo", "volume_size: 30", "storage_size"},
		{"velero", "backup_bucket: backups", "bucket"},
		{"velero", "region: us-west-2", "region"},
		{"harbor", "hostname: registry.acme.example", "hostname"},
		{"harbor", "s3_bucket: images", "bucket"},
		{"harbor", "emit_certificate: true", "emit_certificate"},
		{"harbor", "registry_volume_size: 200", "storage_size"},
		{"kube-prometheus-stack", "hostname: grafana.acme.example", "grafana_hostname"},
		{"kube-prometheus-stack", "grafana_volume_size: 20", "grafana_storage_size"},
		{"kube-prometheus-stack", "prometheus_volume_size: 100", "prometheus_storage_size"},
	}
	secretRows := []struct{ svc, in, path string }{
		{"loki", "loki: {s3_access_key_id: v}", "loki.access_key_id"},
		{"loki", "loki: {s3_secret_access_key: v}", "loki.secret_access_key"},
		{"keycloak", "keycloak: {admin_password: v}", "keycloak.admin_password"},
		{"headlamp", "headlamp: {oidc_client_secret: v}", "headlamp.oidc_client_secret"},
		{"kube-prometheus-stack", "grafana: {admin_password: v}", "kube-prometheus-stack.grafana_admin_password"},
		{"tempo", "tempo: {access_key: v}", "tempo.access_key_id"},
		{"tempo", "tempo: {secret_key: v}", "tempo.secret_access_key"},
	}
	covered := map[string]bool{}
	for _, r := range rows {
		key, val, _ := strings.Cut(r.in, ": ")
		covered[r.svc+"."+key] = true
		res, err := Translate("c1.yaml", []byte(fmt.Sprintf(base, "kind", "    "+r.svc+": {enabled: true, "+r.in+"}", "  k: v")))
		if err != nil {
			t.Fatal(err)
		}
		want := val
		if _, sized := sizes[r.svc][key]; sized {
			want += "Gi"
		}
		if got := fmt.Sprint(at(res.Config, "opencenter.services."+r.svc+"."+r.path)); got != want {
			t.Errorf("%s.%s: opencenter.services.%s.%s = %s, want %s", r.svc, key, r.svc, r.path, got, want)
		}
	}
	for _, r := range secretRows {
		key, _, _ := strings.Cut(strings.Trim(strings.SplitN(r.in, "{", 2)[1], "}"), ": ")
		from := strings.SplitN(r.in, ":", 2)[0] + "." + key
		covered["secrets."+from] = true
		res, err := Translate("c1.yaml", []byte(fmt.Sprintf(base, "kind", "    "+r.svc+": {enabled: true}", "  "+r.in)))
		if err != nil {
			t.Fatal(err)
		}
		if got := at(res.Config, "secrets.services."+r.path); got != "v" {
			t.Errorf("secrets.%s: secrets.services.%s = %v, want v", from, r.path, got)
		}
	}
	for svc, m := range renames {
		for theirs := range m {
			if !covered[svc+"."+theirs] {
				t.Errorf("rename %s.%s has no row", svc, theirs)
			}
		}
	}
	for svc, m := range sizes {
		for theirs := range m {
			if !covered[svc+"."+theirs] {
				t.Errorf("size %s.%s has no row", svc, theirs)
			}
		}
	}
	for from := range secretRenames {
		if !covered["secrets."+from] {
			t.Errorf("secret %s has no row", from)
		}
	}
}
