package plan

import (
	"slices"
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// Tests of the defaults that make `enabled: true` enough, and of the
// credentials that can come from an existing Secret instead of secrets:.

// labPlan loads a config of cluster "lab" with base_domain domain ("" for
// none) and the given services and secrets (one key a line, flow style
// below it) and plans it, plaintext secrets allowed.
func labPlan(t *testing.T, domain, services, secrets string) *Plan {
	t.Helper()
	var b strings.Builder
	b.WriteString("opencenter:\n  meta: {name: lab}\n  cluster: {cluster_name: lab")
	if domain != "" {
		b.WriteString(", base_domain: " + domain)
	}
	b.WriteString("}\n  infrastructure: {provider: kind}\n  gitops:\n    repository: {url: 'https://git.example.com/gitops.git'}\n  services:\n")
	b.WriteString(indent(services, "    "))
	if secrets != "" {
		b.WriteString("secrets:\n  services:\n" + indent(secrets, "    "))
	}
	f, err := config.Parse("lab.yaml", []byte(b.String()), config.LoadOptions{})
	if err != nil {
		t.Fatalf("loading:\n%s\n%v", b.String(), err)
	}
	p, err := Build(f, Options{AllowPlaintextSecrets: true})
	if err != nil {
		t.Fatalf("planning:\n%s\n%v", b.String(), err)
	}
	return p
}

func indent(s, by string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString(by + strings.TrimSpace(l) + "\n")
	}
	return b.String()
}

// wants reports every string of want that text lacks.
func wants(t *testing.T, path, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", path, w, text)
		}
	}
}

// lacks reports every string of bad that text holds.
func lacks(t *testing.T, path, text string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(text, w) {
			t.Errorf("%s holds %q:\n%s", path, w, text)
		}
	}
}

// TestCertManagerAlone: enabled is enough; no ClusterIssuer is rendered,
// nor the Flux unit that would apply one.
func TestCertManagerAlone(t *testing.T) {
	p := labPlan(t, "", "cert-manager: {enabled: true}", "")
	for _, want := range []string{"services/fluxcd/cert-manager-base.yaml", "services/fluxcd/cert-manager-override.yaml", "services/cert-manager/helm-values/override-values.yaml"} {
		if !hasFile(p, want) {
			t.Errorf("%s is not rendered", want)
		}
	}
	for _, f := range p.Files {
		if strings.Contains(f.Path, "issuer") {
			t.Errorf("issuer none renders %s", f.Path)
		}
	}
	checkWithTools(t, p)
}

// TestCertManagerIssuerKinds: each issuer renders its ClusterIssuer, named
// after its kind unless issuer_name says otherwise; acme_email is optional.
func TestCertManagerIssuerKinds(t *testing.T) {
	const issuer = "services/cert-manager/issuers/cluster-issuer.yaml"
	cases := []struct {
		name, services, secrets string
		want, bad               []string
	}{
		{"selfsigned", "cert-manager: {enabled: true, issuer: selfsigned}", "",
			[]string{"name: selfsigned\n", "selfSigned: {}\n"}, []string{"acme:", "ca:"}},
		{"ca", "cert-manager: {enabled: true, issuer: ca, ca_secret_name: root-ca, issuer_name: internal}", "",
			[]string{"name: internal\n", "ca:\n    secretName: root-ca\n"}, []string{"acme:", "selfSigned"}},
		{"acme without email", "cert-manager: {enabled: true, issuer: acme, dns_provider: cloudflare}", "cert-manager: {cloudflare_api_token: fake-token}",
			[]string{"name: letsencrypt\n", "acme:\n    server: https://acme-v02.api.letsencrypt.org/directory\n", "cloudflare:"}, []string{"email:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := labPlan(t, "lab.example.com", tc.services, tc.secrets)
			text := fileText(t, p, issuer)
			wants(t, issuer, text, tc.want...)
			lacks(t, issuer, text, tc.bad...)
			if !hasFile(p, "services/fluxcd/cert-manager-issuers.yaml") || !listed(t, p, "services/cert-manager/issuers/kustomization.yaml", "cluster-issuer.yaml") {
				t.Error("the ClusterIssuer is not applied")
			}
			checkWithTools(t, p)
		})
	}
}

// TestGatewayDefaultListeners: without listeners, the gateway serves http
// for *.<base_domain>, and https too when it can have a certificate: from
// cert-manager's issuer (into <name>-tls) or from tls_secret_name.
func TestGatewayDefaultListeners(t *testing.T) {
	const gw = "services/gateway/gateway.yaml"
	const http = "    - name: http\n      protocol: HTTP\n      port: 80\n"
	const https = "    - name: https\n      protocol: HTTPS\n      port: 443\n"
	cases := []struct {
		name, domain, services string
		want, bad              []string
	}{
		{"selfsigned issuer", "lab.example.com", "cert-manager: {enabled: true, issuer: selfsigned}\ngateway: {enabled: true}",
			[]string{http, https, "hostname: \"*.lab.example.com\"\n", "name: opencenter-gateway-tls\n", "cert-manager.io/cluster-issuer: selfsigned\n"}, nil},
		{"certificate provided", "lab.example.com", "cert-manager: {enabled: true}\ngateway: {enabled: true, tls_secret_name: wildcard-lab}",
			[]string{http, https, "name: wildcard-lab\n"}, []string{"cert-manager.io/cluster-issuer"}},
		{"provided certificate, issued by cert-manager", "lab.example.com", "cert-manager: {enabled: true, issuer: ca, ca_secret_name: root-ca}\ngateway: {enabled: true, issuer: ca, tls_secret_name: wildcard-lab}",
			[]string{https, "name: wildcard-lab\n", "cert-manager.io/cluster-issuer: ca\n"}, nil},
		{"no certificate", "lab.example.com", "cert-manager: {enabled: true}\ngateway: {enabled: true}",
			[]string{http, "hostname: \"*.lab.example.com\"\n"}, []string{"protocol: HTTPS", "cert-manager.io/cluster-issuer"}},
		{"no base_domain", "", "cert-manager: {enabled: true, issuer: selfsigned}\ngateway: {enabled: true}",
			[]string{http}, []string{"protocol: HTTPS", "hostname:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := labPlan(t, tc.domain, tc.services+"\ngateway-api: {enabled: true}", "")
			text := fileText(t, p, gw)
			wants(t, gw, text, append(tc.want, "# Its listeners are the defaults")...)
			lacks(t, gw, text, tc.bad...)
			checkWithTools(t, p)
		})
	}
	// Listeners the config lists are kept as they are.
	p := labPlan(t, "lab.example.com", "cert-manager: {enabled: true}\ngateway-api: {enabled: true}\ngateway: {enabled: true, listeners: [{name: web, port: 8080, protocol: HTTP}]}", "")
	text := fileText(t, p, gw)
	wants(t, gw, text, "- name: web\n")
	lacks(t, gw, text, "name: http\n", "the defaults")
}

// TestGrafanaAdminCredentials: Grafana's admin login comes from
// secrets: (rendered), from an existing Secret (referenced), or from the
// chart, which generates a password when the values give none.
func TestGrafanaAdminCredentials(t *testing.T) {
	const values, secret = "services/kube-prometheus-stack/helm-values/override-values.yaml", "services/kube-prometheus-stack/grafana-admin-secret.yaml"
	cases := []struct {
		name, services, secrets string
		want, bad               []string
		secretFile              bool
	}{
		{"from secrets", "kube-prometheus-stack: {enabled: true}", "kube-prometheus-stack: {grafana_admin_password: fake-password}",
			[]string{"existingSecret: grafana-admin\n"}, []string{"adminPassword"}, true},
		{"existing secret", "kube-prometheus-stack: {enabled: true, grafana_existing_secret: grafana-from-vault}", "",
			[]string{"existingSecret: grafana-from-vault\n", "passwordKey: admin-password\n"}, []string{"grafana-admin\n", "adminPassword"}, false},
		{"generated by the chart", "kube-prometheus-stack: {enabled: true}", "",
			[]string{"  adminPassword: \"\"\n"}, []string{"existingSecret"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := labPlan(t, "", tc.services, tc.secrets)
			text := fileText(t, p, values)
			wants(t, values, text, tc.want...)
			lacks(t, values, text, tc.bad...)
			if hasFile(p, secret) != tc.secretFile {
				t.Errorf("%s rendered: %v, want %v", secret, hasFile(p, secret), tc.secretFile)
			}
			checkWithTools(t, p)
		})
	}
}

// TestObjectStoreExistingSecret: with existing_secret, loki, mimir, tempo and
// velero read their object store credentials from that Secret and render
// none of their own.
func TestObjectStoreExistingSecret(t *testing.T) {
	cases := []struct {
		svc, services, file, secretFile string
		want                            []string
	}{
		{"loki", "loki: {enabled: true, storage: s3, bucket: logs, region: us-east-1, existing_secret: loki-s3}",
			"services/loki/helm-values/override-values.yaml", "services/loki/object-store-secret.yaml", []string{"name: loki-s3\n", "# Expanded from the Secret loki-s3"}},
		{"mimir", "mimir: {enabled: true, storage: swift, bucket: metrics, region: RegionOne, endpoint: 'https://keystone.example.com:5000/v3', existing_secret: mimir-swift}",
			"services/mimir/helm-values/override-values.yaml", "services/mimir/object-store-secret.yaml", []string{"name: mimir-swift\n", "application_credential_id: ${OS_APPLICATION_CREDENTIAL_ID}"}},
		{"tempo", "tempo: {enabled: true, storage: s3, bucket: traces, region: us-east-1, existing_secret: tempo-s3}\nkube-prometheus-stack: {enabled: true}",
			"services/tempo/helm-values/override-values.yaml", "services/tempo/object-store-secret.yaml", []string{"name: tempo-s3\n"}},
		{"velero", "velero: {enabled: true, bucket: backups, region: us-east-1, existing_secret: velero-cloud}",
			"services/velero/helm-values/override-values.yaml", "services/velero/velero-credentials-secret.yaml", []string{"existingSecret: velero-cloud\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.svc, func(t *testing.T) {
			p := labPlan(t, "", tc.services, "")
			text := fileText(t, p, tc.file)
			wants(t, tc.file, text, tc.want...)
			lacks(t, tc.file, text, tc.svc+"-object-store", "velero-credentials")
			if hasFile(p, tc.secretFile) {
				t.Errorf("%s is rendered beside existing_secret", tc.secretFile)
			}
			checkWithTools(t, p)
		})
	}
}

// TestHarborCredentials: harbor's admin password, encryption key and
// object store credentials come from secrets: or from existing Secrets;
// swift works with a Keystone user and its password.
func TestHarborCredentials(t *testing.T) {
	const values = "services/harbor/helm-values/override-values.yaml"
	const admin, store = "services/harbor/harbor-admin-secret.yaml", "services/harbor/harbor-object-store-secret.yaml"
	const key = "services/harbor/harbor-secret-key.yaml"

	p := labPlan(t, "", `harbor: {enabled: true, hostname: harbor.lab.example.com, admin_existing_secret: harbor-admin-vault,
		storage: s3, bucket: images, region: us-east-1, object_store_existing_secret: harbor-s3-vault, secret_key_existing_secret: harbor-key-vault,
		values_existing_secret: harbor-values-vault}`, "")
	text := fileText(t, p, values)
	wants(t, values, text, "existingSecretAdminPassword: harbor-admin-vault\n", "existingSecret: harbor-s3-vault\n", "existingSecretSecretKey: harbor-key-vault\n")
	lacks(t, values, text, "harbor-admin\n", "harbor-object-store", "harbor-secret-key")
	if hasFile(p, admin) || hasFile(p, store) || hasFile(p, key) {
		t.Error("existing Secrets given: harbor renders no Secret of its own")
	}
	checkWithTools(t, p)

	p = labPlan(t, "", `harbor: {enabled: true, hostname: harbor.lab.example.com, storage: swift, bucket: images,
		endpoint: 'https://keystone.example.com:5000/v3', swift_username: registry, swift_project: platform}`,
		"harbor: {admin_password: fake-admin, swift_password: fake-swift, secret_key: '0123456789012345', database_password: fake-database, registry_password: fake-registry}")
	text = fileText(t, p, values)
	wants(t, values, text, "type: swift\n", "authurl: https://keystone.example.com:5000/v3\n", "authversion: 3\n",
		"username: registry\n", "tenant: platform\n", "domain: Default\n", "container: images\n", "existingSecret: harbor-object-store\n",
		"existingSecretAdminPassword: harbor-admin\n", "existingSecretSecretKey: harbor-secret-key\n")
	lacks(t, values, text, "region:", "s3:")
	wants(t, store, fileText(t, p, store), "REGISTRY_STORAGE_SWIFT_PASSWORD: fake-swift\n")
	lacks(t, store, fileText(t, p, store), "S3")
	// The chart mounts the key as a file Harbor core reads whole: it
	// must stay the string of 16 digits, not a number, with no newline.
	keyDocs := documents(t, key, []byte(fileText(t, p, key)))
	if len(keyDocs) != 1 || str(keyDocs[0], "stringData", "secretKey") != "0123456789012345" || str(keyDocs[0], "metadata", "name") != "harbor-secret-key" {
		t.Errorf("%s: want the Secret harbor-secret-key with secretKey the string 0123456789012345, got %v", key, keyDocs)
	}
	if !listed(t, p, "services/harbor/kustomization.yaml", "harbor-object-store-secret.yaml") || !listed(t, p, "services/harbor/kustomization.yaml", "harbor-admin-secret.yaml") ||
		!listed(t, p, "services/harbor/kustomization.yaml", "harbor-secret-key.yaml") {
		t.Error("the Secrets from secrets: are applied")
	}
	checkWithTools(t, p)
}

// TestHarborInternalNetworkPolicy: by default only Harbor's pods reach its
// database, Redis and Trivy adapter. The pods are labelled as the harbor chart 1.17.2
// labels them (templates/_helpers.tpl harbor.labels on every workload,
// harbor.matchLabels alone on the pre-upgrade migration Job).
func TestHarborInternalNetworkPolicy(t *testing.T) {
	const file = "services/harbor/harbor-internal-network-policy.yaml"
	const harbor = `harbor: {enabled: true, hostname: harbor.lab.example.com, admin_existing_secret: a, secret_key_existing_secret: k, values_existing_secret: v`
	chartLabels := func(component string) map[string]string {
		return map[string]string{"heritage": "Helm", "release": "harbor", "chart": "harbor", "app": "harbor",
			"app.kubernetes.io/instance": "harbor", "app.kubernetes.io/name": "harbor", "app.kubernetes.io/managed-by": "Helm",
			"app.kubernetes.io/part-of": "harbor", "component": component, "app.kubernetes.io/component": component}
	}
	pods := []struct {
		name             string
		labels           map[string]string
		guarded, allowed bool
	}{
		{"database", chartLabels("database"), true, true},
		{"redis", chartLabels("redis"), true, true},
		{"trivy", chartLabels("trivy"), true, true},
		{"core", chartLabels("core"), false, true},
		{"jobservice", chartLabels("jobservice"), false, true},
		{"exporter", chartLabels("exporter"), false, true},
		{"migration job", map[string]string{"release": "harbor", "app": "harbor", "component": "migrator"}, false, true},
		{"grafana", map[string]string{"app.kubernetes.io/name": "grafana", "app.kubernetes.io/instance": "kube-prometheus-stack"}, false, false},
		{"another release's core", map[string]string{"release": "other", "app": "harbor", "component": "core"}, false, false},
	}

	p := labPlan(t, "", harbor+"}", "")
	var np networkingv1.NetworkPolicy
	if err := sigsyaml.Unmarshal([]byte(fileText(t, p, file)), &np); err != nil {
		t.Fatal(err)
	}
	if !listed(t, p, "services/harbor/kustomization.yaml", "harbor-internal-network-policy.yaml") {
		t.Error("the NetworkPolicy is not applied")
	}
	if !slices.Equal(np.Spec.PolicyTypes, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}) || len(np.Spec.Ingress) != 1 || len(np.Spec.Ingress[0].From) != 1 {
		t.Fatalf("%s: want one ingress rule from one peer, got %+v", file, np.Spec)
	}
	guarded, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
	if err != nil {
		t.Fatal(err)
	}
	peer := np.Spec.Ingress[0].From[0]
	if peer.NamespaceSelector != nil || peer.IPBlock != nil {
		t.Fatalf("%s: the peer reaches beyond the namespace: %+v", file, peer)
	}
	from, err := metav1.LabelSelectorAsSelector(peer.PodSelector)
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range pods {
		if got := guarded.Matches(labels.Set(pod.labels)); got != pod.guarded {
			t.Errorf("%s: guarded %v, want %v", pod.name, got, pod.guarded)
		}
		if got := from.Matches(labels.Set(pod.labels)); got != pod.allowed {
			t.Errorf("%s: allowed in %v, want %v", pod.name, got, pod.allowed)
		}
	}
	checkWithTools(t, p)

	if p := labPlan(t, "", harbor+", internal_network_policy: false}", ""); hasFile(p, file) {
		t.Errorf("%s is rendered with internal_network_policy false", file)
	}
}

// TestKeycloakCredentials: db_password becomes the Secret the postgres
// operator and the Keycloak CR read; the admin login can come from an
// existing Secret, which the Keycloak CR's bootstrapAdmin names.
func TestKeycloakCredentials(t *testing.T) {
	const db, pg = "services/keycloak/00-postgres/keycloak-db-credentials-secret.yaml", "services/keycloak/00-postgres/kustomization.yaml"
	const admin, kc = "services/keycloak/20-keycloak/keycloak-admin-secret.yaml", "services/keycloak/20-keycloak/kustomization.yaml"
	deps := "postgres-operator: {enabled: true}\nolm: {enabled: true}\ncert-manager: {enabled: true}\nrbac-manager: {enabled: true}\n"

	p := labPlan(t, "", deps+"keycloak: {enabled: true, admin_existing_secret: keycloak-admin-vault}", "keycloak: {db_password: fake-db-password}")
	wants(t, db, fileText(t, p, db), "name: keycloak.postgres-cluster.credentials.postgresql.acid.zalan.do\n", "username: keycloak\n", "password: fake-db-password\n")
	if !listed(t, p, pg, "keycloak-db-credentials-secret.yaml") {
		t.Errorf("%s does not list the database credentials", pg)
	}
	wants(t, kc, fileText(t, p, kc), "bootstrapAdmin:\n          user:\n            secret: keycloak-admin-vault\n")
	if hasFile(p, admin) {
		t.Errorf("%s is rendered beside admin_existing_secret", admin)
	}
	checkWithTools(t, p)

	p = labPlan(t, "", deps+"keycloak: {enabled: true}", "")
	if hasFile(p, db) || listed(t, p, pg, "keycloak-db-credentials-secret.yaml") || hasFile(p, admin) {
		t.Error("without passwords the operators generate them: no Secret is rendered")
	}
	lacks(t, kc, fileText(t, p, kc), "bootstrapAdmin")
}

// TestCredentialsExistingSecret: with a reference to an existing Secret,
// etcd-backup, cert-manager's DNS-01 solver, headlamp's OIDC client, the
// OpenStack CCM and CSI and the vSphere CSI read that Secret and render
// none of their own.
func TestCredentialsExistingSecret(t *testing.T) {
	cases := []struct {
		name, services, file string
		want, bad            []string
		notRendered          string
		notListed            [2]string // a kustomization and the file it must not list
	}{
		{name: "etcd-backup", services: "etcd-backup: {enabled: true, bucket: etcd-snapshots, existing_secret: etcd-s3-vault}",
			file: "services/etcd-backup/cronjob.yaml", want: []string{"name: etcd-s3-vault\n"}, bad: []string{"etcd-backup-s3"},
			notRendered: "services/etcd-backup/s3-credentials-secret.yaml",
			notListed:   [2]string{"services/etcd-backup/kustomization.yaml", "s3-credentials-secret.yaml"}},
		{name: "cert-manager-cloudflare", services: "gateway-api: {enabled: true}\ncert-manager: {enabled: true, issuer: acme, dns_provider: cloudflare, dns_existing_secret: cloudflare-vault}",
			file: "services/cert-manager/issuers/cluster-issuer.yaml", want: []string{"apiTokenSecretRef:\n              name: cloudflare-vault\n"}, bad: []string{"cloudflare-api-token\n"},
			notRendered: "services/cert-manager/issuers/cloudflare-api-token-secret.yaml",
			notListed:   [2]string{"services/cert-manager/issuers/kustomization.yaml", "cloudflare-api-token-secret.yaml"}},
		{name: "cert-manager-route53", services: "gateway-api: {enabled: true}\ncert-manager: {enabled: true, issuer: acme, dns_provider: route53, route53_region: us-east-1, dns_existing_secret: route53-vault}",
			file: "services/cert-manager/issuers/cluster-issuer.yaml", want: []string{"accessKeyIDSecretRef:\n              name: route53-vault\n", "secretAccessKeySecretRef:\n              name: route53-vault\n"}, bad: []string{"route53-credentials"},
			notRendered: "services/cert-manager/issuers/route53-credentials-secret.yaml",
			notListed:   [2]string{"services/cert-manager/issuers/kustomization.yaml", "route53-credentials-secret.yaml"}},
		{name: "cert-manager-designate", services: "gateway-api: {enabled: true}\ncert-manager: {enabled: true, issuer: acme, dns_provider: designate, dns_existing_secret: designate-vault}",
			file: "services/cert-manager/issuers/designate-webhook.yaml", want: []string{"credentialsSecret: designate-vault\n"}, bad: []string{"designate-credentials"},
			notRendered: "services/cert-manager/issuers/designate-credentials-secret.yaml",
			notListed:   [2]string{"services/cert-manager/issuers/kustomization.yaml", "designate-credentials-secret.yaml"}},
		{name: "headlamp", services: "headlamp: {enabled: true, oidc_enabled: true, oidc_existing_secret: headlamp-oidc-vault}",
			file: "services/headlamp/helm-values/override-values.yaml", want: []string{"name: headlamp-oidc-vault\n"}, bad: []string{"headlamp-oidc\n"},
			notRendered: "services/headlamp/headlamp-oidc-secret.yaml"},
		{name: "openstack-ccm", services: "openstack-ccm: {enabled: true, existing_secret: ccm-cloud-conf}",
			file: "services/openstack-ccm/helm-values/override-values.yaml", want: []string{"create: false\n", "name: ccm-cloud-conf\n"}, bad: []string{"openstack-ccm-cloud-config"},
			notRendered: "services/openstack-ccm/cloud-config-secret.yaml"},
		{name: "openstack-csi", services: "openstack-csi: {enabled: true, existing_secret: csi-cloud-conf}",
			file: "services/openstack-csi/helm-values/override-values.yaml", want: []string{"create: false\n", "name: csi-cloud-conf\n"}, bad: []string{"openstack-csi-cloud-config"},
			notRendered: "services/openstack-csi/cloud-config-secret.yaml"},
		{name: "vsphere-csi", services: "vsphere-csi: {enabled: true, existing_secret: vsphere-conf-vault}",
			file: "services/vsphere-csi/helm-values/override-values.yaml", want: []string{"existingSecret: vsphere-conf-vault\n"}, bad: []string{"vsphere-csi-config"},
			notRendered: "services/vsphere-csi/csi-vsphere-config-secret.yaml"},
		{name: "weave-gitops", services: "weave-gitops: {enabled: true, admin_existing_secret: cluster-user-auth}",
			file: "services/weave-gitops/helmrelease.yaml", want: []string{"createSecret: false\n"},
			notRendered: "services/weave-gitops/cluster-user-auth-secret.yaml",
			notListed:   [2]string{"services/weave-gitops/kustomization.yaml", "cluster-user-auth-secret.yaml"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := labPlan(t, "lab.example.com", tc.services, "")
			text := fileText(t, p, tc.file)
			wants(t, tc.file, text, tc.want...)
			lacks(t, tc.file, text, tc.bad...)
			if hasFile(p, tc.notRendered) {
				t.Errorf("%s is rendered beside the existing Secret", tc.notRendered)
			}
			if k := tc.notListed; k[0] != "" && listed(t, p, k[0], k[1]) {
				t.Errorf("%s lists %s", k[0], k[1])
			}
			checkWithTools(t, p)
		})
	}
}
