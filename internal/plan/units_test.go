package plan

import (
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// devConfig loads the k8s-dev fixture for a test to change in Go.
func devConfig(t *testing.T) *config.File {
	t.Helper()
	return loadConfig(t, fixtureRepo+"/.k8s-dev-config.yaml")
}

func build(t *testing.T, f *config.File) *Plan {
	t.Helper()
	p, err := Build(f, Options{AllowPlaintextSecrets: true})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return p
}

func hasFile(p *Plan, path string) bool { _, ok := p.File(path); return ok }

func fileText(t *testing.T, p *Plan, path string) string {
	t.Helper()
	f, ok := p.File(path)
	if !ok {
		t.Fatalf("%s is not rendered", path)
	}
	return string(f.Data)
}

// listed reports whether the kustomization at path lists name.
func listed(t *testing.T, p *Plan, path, name string) bool {
	t.Helper()
	return strings.Contains(fileText(t, p, path), "- "+name+"\n")
}

func TestKeycloakConditionalFiles(t *testing.T) {
	f := devConfig(t)
	kc := f.Config.OpenCenter.Services.Keycloak
	p := build(t, f)
	const dir = "services/keycloak/20-keycloak/"
	for _, name := range []string{"keycloak-backup-cronjob.yaml", "keycloak-hpa.yaml"} {
		if !hasFile(p, dir+name) || !listed(t, p, dir+"kustomization.yaml", name) {
			t.Errorf("dev sets backup_enabled and max_replicas: %s should be rendered and listed", name)
		}
	}
	if !strings.Contains(fileText(t, p, dir+"keycloak-hpa.yaml"), "maxReplicas: 4\n") {
		t.Error("the HPA's maxReplicas comes from max_replicas")
	}
	kc.BackupEnabled, kc.MaxReplicas = false, nil
	p = build(t, f)
	for _, name := range []string{"keycloak-backup-cronjob.yaml", "keycloak-hpa.yaml"} {
		if hasFile(p, dir+name) || listed(t, p, dir+"kustomization.yaml", name) {
			t.Errorf("without backup_enabled and max_replicas, %s should be neither rendered nor listed", name)
		}
	}
	checkWithTools(t, p)
}

func TestKeycloakAloneIsRefused(t *testing.T) {
	f, err := config.Parse("kc.yaml", []byte(`opencenter:
  meta: {name: kc}
  cluster: {cluster_name: kc}
  infrastructure: {provider: kind}
  gitops:
    repository: {url: "ssh://git@h/r.git"}
    base_repo: {release: "2026.01"}
  services:
    keycloak: {enabled: true}
`), config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(f, Options{})
	for _, want := range []string{"kc.yaml:9:5: opencenter.services.keycloak: keycloak requires postgres-operator", "keycloak requires olm", "keycloak requires cert-manager"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in:\n%v", want, err)
		}
	}
}

// TestObservabilityGroup: loki alone brings the shared namespace and sources
// units, and nothing of the other observability services.
func TestObservabilityGroup(t *testing.T) {
	f := devConfig(t)
	s := &f.Config.OpenCenter.Services
	s.KubePrometheusStack, s.Mimir, s.Tempo, s.OpenTelemetryKubeStack = nil, nil, nil, nil
	p := build(t, f)
	for _, want := range []string{"services/fluxcd/observability-namespace.yaml", "services/fluxcd/observability-sources.yaml", "services/sources/opencenter-observability.yaml", "services/fluxcd/loki-base.yaml"} {
		if !hasFile(p, want) {
			t.Errorf("loki alone: %s missing", want)
		}
	}
	for _, f := range p.Files {
		if strings.Contains(f.Path, "kube-prometheus-stack") || strings.Contains(f.Path, "mimir") || strings.Contains(f.Path, "tempo") {
			t.Errorf("loki alone renders %s", f.Path)
		}
	}
	if !strings.Contains(fileText(t, p, "services/fluxcd/loki-base.yaml"), "- name: observability-sources\n") {
		t.Error("loki-base depends on observability-sources")
	}
	checkWithTools(t, p)

	s.Loki = nil
	p = build(t, f)
	if hasFile(p, "services/fluxcd/observability-namespace.yaml") {
		t.Error("no observability service: no observability-namespace unit")
	}
}

func TestHarborCertificate(t *testing.T) {
	f := devConfig(t)
	const cert, kust = "services/harbor/harbor-certificate.yaml", "services/harbor/kustomization.yaml"
	// Harbor terminates TLS itself where no cluster Gateway publishes it.
	s := &f.Config.OpenCenter.Services
	s.Gateway.Enabled, s.Keycloak.GatewayRoute = false, false
	s.Harbor.EmitCertificate, s.Harbor.Issuer = true, "letsencrypt"
	p := build(t, f)
	if !hasFile(p, cert) || !listed(t, p, kust, "harbor-certificate.yaml") {
		t.Fatal("dev without the Gateway emits the harbor Certificate")
	}
	if hasFile(p, "services/harbor/harbor-httproute.yaml") {
		t.Error("without the Gateway Harbor has no route")
	}
	if !strings.Contains(fileText(t, p, cert), f.Config.OpenCenter.Services.Harbor.Hostname) {
		t.Error("the Certificate names harbor's hostname")
	}
	f.Config.OpenCenter.Services.Harbor.EmitCertificate = false
	p = build(t, f)
	if hasFile(p, cert) || listed(t, p, kust, "harbor-certificate.yaml") {
		t.Error("without emit_certificate there is no Certificate")
	}
}

func TestKafkaCluster(t *testing.T) {
	f := devConfig(t)
	k := f.Config.OpenCenter.Services.KafkaCluster
	p := build(t, f)
	text := fileText(t, p, "services/kafka-cluster/cluster/kafka.yaml")
	if !strings.Contains(text, "name: "+k.ClusterName+"\n") {
		t.Errorf("the Kafka CR is named from cluster_name %q:\n%s", k.ClusterName, text)
	}
	if !strings.Contains(fileText(t, p, "services/fluxcd/kafka-cluster-base.yaml"), "path: ./applications/base/services/strimzi-kafka-operator\n") {
		t.Error("the operator comes from the strimzi base path")
	}
	if !strings.Contains(fileText(t, p, "services/fluxcd/kafka-cluster.yaml"), "- name: kafka-cluster-base\n") {
		t.Error("the cluster CR waits for the operator")
	}
}

func TestGatewayFromConfig(t *testing.T) {
	f := devConfig(t)
	g := f.Config.OpenCenter.Services.Gateway
	g.Name, g.GatewayClassName = "edge", "edge-class"
	p := build(t, f)
	gw := fileText(t, p, "services/gateway/gateway.yaml")
	for _, want := range []string{"name: edge\n", "gatewayClassName: edge-class\n"} {
		if !strings.Contains(gw, want) {
			t.Errorf("gateway.yaml lacks %q:\n%s", want, gw)
		}
	}
	for _, l := range g.Listeners {
		if !strings.Contains(gw, "name: "+l.Name+"\n") || (l.Hostname != "" && !strings.Contains(gw, l.Hostname)) {
			t.Errorf("listener %s is not in gateway.yaml", l.Name)
		}
	}
	if !strings.Contains(fileText(t, p, "services/gateway/gatewayclass.yaml"), "name: edge-class\n") {
		t.Error("the GatewayClass is named from gateway_class_name")
	}
}

func TestCertManagerIssuers(t *testing.T) {
	f := devConfig(t)
	cm := f.Config.OpenCenter.Services.CertManager
	cm.DNSProvider = config.DNSProviderCloudflare
	if f.Config.Secrets.Services.CertManager == nil {
		f.Config.Secrets.Services.CertManager = &config.CertManagerSecrets{}
	}
	f.Config.Secrets.Services.CertManager.CloudflareAPIToken = "fake-token"
	p := build(t, f)
	issuer := fileText(t, p, "services/cert-manager/issuers/cluster-issuer.yaml")
	for _, want := range []string{"email: " + cm.ACMEEmail + "\n", "cloudflare:"} {
		if !strings.Contains(issuer, want) {
			t.Errorf("ClusterIssuer lacks %q:\n%s", want, issuer)
		}
	}
	secret, ok := p.File("services/cert-manager/issuers/cloudflare-api-token-secret.yaml")
	if !ok || !secret.Secret || strings.Contains(string(secret.Data), "fake-token") {
		t.Fatal("the Cloudflare token comes from secrets: into a secret file, encrypted (sops is on in the fixture)")
	}
	ids, _ := sops.LoadIdentities()
	if plain, _, err := sops.Decrypt(overlay.Body(secret.Data), ids); err != nil || !strings.Contains(string(plain), "fake-token") {
		t.Errorf("the encrypted token decrypts to it: %v", err)
	}
	f.Config.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false
	if _, err := Build(f, Options{}); err == nil || !strings.Contains(err.Error(), "--allow-plaintext-secrets") {
		t.Error("without sops and without the flag the token is refused")
	}
}

// TestOverlayOnlyUnits: calico, etcd-backup and weave-gitops have no base
// directory; their files are applied by their own Flux unit from the cluster
// repo, listed in the aggregate.
func TestOverlayOnlyUnits(t *testing.T) {
	p := build(t, devConfig(t))
	for _, u := range []string{"calico", "etcd-backup", "weave-gitops"} {
		fu := "services/fluxcd/" + u + ".yaml"
		if !listed(t, p, "services/fluxcd/kustomization.yaml", u+".yaml") {
			t.Errorf("%s is not in the services aggregate", fu)
		}
		if !strings.Contains(fileText(t, p, fu), "path: ./applications/overlays/k8s-dev/services/"+u+"\n") {
			t.Errorf("%s does not apply services/%s", fu, u)
		}
	}
	checkWithTools(t, p) // includes the orphan check
}

func TestAlertProxy(t *testing.T) {
	f := devConfig(t)
	p := build(t, f)
	if !strings.Contains(fileText(t, p, "managed-services/fluxcd/alert-proxy-base.yaml"), "path: ./applications/base/managed-services/alert-proxy\n") {
		t.Error("alert-proxy comes from managed-services/alert-proxy")
	}
	tokens, ok := p.File("managed-services/alert-proxy/alert-proxy-tokens.yaml")
	if !ok || !tokens.Secret || !strings.Contains(string(tokens.Data), "namespace: rackspace\n") {
		t.Error("alert-proxy's tokens are a secret file in rackspace")
	}
	f.Config.Secrets.ManagedServices.AlertProxy = nil
	if p = build(t, f); hasFile(p, "managed-services/alert-proxy/alert-proxy-tokens.yaml") {
		t.Error("no tokens in secrets: no tokens Secret")
	}
}
