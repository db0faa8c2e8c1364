package plan

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// baseKeycloak is what of the Keycloak CR at base 2026.01
// (applications/base/services/keycloak/20-keycloak/keycloak-cr.yaml) the
// server's start-up reads, and its database's address: the overlay patches
// it.
const baseKeycloak = `apiVersion: k8s.keycloak.org/v2alpha1
kind: Keycloak
metadata:
  name: keycloak
  namespace: keycloak
spec:
  instances: 3
  db:
    vendor: postgres
    url: jdbc:postgresql://postgres-cluster.keycloak.svc.cluster.local:5432/keycloak
  http:
    httpEnabled: true
  hostname:
    hostname: https://auth.example.com
    strict: false
    backchannelDynamic: true
  additionalOptions:
    - name: proxy
      value: "edge"
`

// TestKeycloakStarts builds the Keycloak CR of every fixture cluster that
// deploys Keycloak, the base's CR with the overlay's patches applied by
// kustomize, and holds it to what Keycloak 26 does with it:
//   - with hostname.backchannelDynamic, the server refuses to start unless
//     hostname is a full URL (HostnameV2ProviderFactory: "must be set to
//     false if hostname is not provided as full URL");
//   - behind the Gateway, which terminates TLS and sets X-Forwarded-Proto
//     (Envoy with no trusted hops), the server reads the scheme only with
//     proxy.headers xforwarded, and answers origin-checked requests 403
//     without it; the base's proxy=edge option was removed in Keycloak 26;
//   - the HTTPRoute, not the operator's default Ingress, publishes it.
func TestKeycloakStarts(t *testing.T) {
	seen := 0
	for _, p := range corpusPlans(t) {
		var kust []byte
		routed := false
		for _, f := range p.Files {
			switch {
			case strings.HasSuffix(f.Path, "/keycloak/20-keycloak/kustomization.yaml"):
				kust = f.Data
			case strings.HasSuffix(f.Path, "/keycloak/20-keycloak/keycloak-httproute.yaml"):
				routed = true
			}
		}
		if kust == nil {
			continue
		}
		seen++
		cr := patchedBy(t, kust, baseKeycloak)
		host := str(cr, "spec", "hostname", "hostname")
		if u, err := url.Parse(host); field(cr, "spec", "hostname", "backchannelDynamic") == true && (err != nil || u.Scheme == "" || u.Host == "") {
			t.Errorf("%s: Keycloak's hostname is %q with backchannelDynamic: Keycloak 26 refuses to start unless hostname is a full URL", p.Cluster, host)
		}
		if !routed {
			continue
		}
		if h := str(cr, "spec", "proxy", "headers"); h != "xforwarded" {
			t.Errorf("%s: Keycloak is published through the Gateway with proxy.headers %q: it would take the scheme of its URLs from the Gateway's plain-HTTP request, and refuse origin-checked requests", p.Cluster, h)
		}
		if field(cr, "spec", "ingress", "enabled") != false {
			t.Errorf("%s: Keycloak is published through the Gateway, and the operator's default Ingress publishes it again", p.Cluster)
		}
		if !strings.HasPrefix(host, "https://") {
			t.Errorf("%s: Keycloak is published over HTTPS, and its frontend URL is %q", p.Cluster, host)
		}
	}
	if seen == 0 {
		t.Error("no fixture cluster deploys Keycloak: the test checked nothing")
	}
}

// patchedBy applies, with kustomize, the patches of the rendered
// kustomization kust to the object base.
func patchedBy(t *testing.T, kust []byte, base string) map[string]any {
	t.Helper()
	var k struct {
		Patches []map[string]any `yaml:"patches"`
	}
	if err := yaml.Unmarshal(kust, &k); err != nil {
		t.Fatal(err)
	}
	obj, err := kustomizePatched([]byte(base), k.Patches)
	if err != nil {
		t.Fatalf("the base's object with the overlay's patches: %v", err)
	}
	return obj
}

// fileData is the content of a plan's file, which must be there.
func fileData(t *testing.T, p *Plan, path string) []byte {
	t.Helper()
	f, ok := p.File(path)
	if !ok {
		t.Fatalf("%s: no %s", p.Cluster, path)
	}
	return f.Data
}

// basePostgresMajor is the PostgreSQL major version of Keycloak's database
// at base 2026.01 (applications/base/services/keycloak/00-postgres/
// postgres-cluster.yaml, spec.postgresql.version).
const basePostgresMajor = 17

// TestKeycloakBackupDumps: the backup CronJob's pg_dump is of the
// database server's major version or newer. pg_dump "cannot dump from
// PostgreSQL servers newer than its own major version; it will refuse to
// even try" (the PostgreSQL documentation of pg_dump).
func TestKeycloakBackupDumps(t *testing.T) {
	seen := 0
	for _, p := range corpusPlans(t) {
		for _, f := range p.Files {
			if !strings.HasSuffix(f.Path, "/keycloak/20-keycloak/keycloak-backup-cronjob.yaml") {
				continue
			}
			for _, obj := range documents(t, f.Path, f.Data) {
				containers, _ := field(obj, "spec", "jobTemplate", "spec", "template", "spec", "containers").([]any)
				for _, c := range containers {
					image := str(c.(map[string]any), "image")
					_, tag, _ := strings.Cut(image, ":") // 17-alpine, 17.2
					major, err := strconv.Atoi(tag[:strings.IndexFunc(tag+"-", func(r rune) bool { return r < '0' || r > '9' })])
					seen++
					if err != nil || major < basePostgresMajor {
						t.Errorf("%s: %s: pg_dump from %s cannot dump the PostgreSQL %d server", p.Cluster, f.Path, image, basePostgresMajor)
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no fixture cluster backs Keycloak's database up: the test checked nothing")
	}
}

// baseKeycloakSubscription is the OLM Subscription of the Keycloak operator
// at base 2026.01 (applications/base/services/keycloak/10-operator/
// subscription.yaml).
const baseKeycloakSubscription = `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata:
  name: keycloak-subscription
  namespace: keycloak
spec:
  name: keycloak-operator
  source: operatorhubio-catalog
  sourceNamespace: olm
  channel: fast
  installPlanApproval: Manual
  startingCSV: keycloak-operator.v26.4.2
`

// TestKeycloakOperatorInstalls applies each Keycloak cluster's
// 10-operator patches with kustomize to the base's Subscription: OLM
// creates a Manual Subscription's InstallPlans unapproved, the first one
// too, and installs nothing until someone approves it, so unless a config
// asks for that (operator_manual_approval), the approval is Automatic.
func TestKeycloakOperatorInstalls(t *testing.T) {
	seen := 0
	for _, name := range fixtureConfigs(t) {
		if kc := loadConfig(t, name).Config.OpenCenter.Services.Keycloak; kc == nil || !kc.Enabled {
			continue
		}
		for _, manual := range []bool{false, true} {
			p := planEdited(t, name, func(c *config.Config) {
				k := *c.OpenCenter.Services.Keycloak
				k.OperatorManualApproval = manual
				c.OpenCenter.Services.Keycloak = &k
			})
			sub := patchedBy(t, fileData(t, p, "services/keycloak/10-operator/kustomization.yaml"), baseKeycloakSubscription)
			want := map[bool]string{false: "Automatic", true: "Manual"}[manual]
			if got := str(sub, "spec", "installPlanApproval"); got != want {
				t.Errorf("%s (operator_manual_approval %v): installPlanApproval %s, want %s", p.Cluster, manual, got, want)
			}
			if got := str(sub, "spec", "startingCSV"); got != "keycloak-operator.v26.4.2" {
				t.Errorf("%s: startingCSV %s: the patch moved the base's pin", p.Cluster, got)
			}
			seen++
		}
	}
	if seen == 0 {
		t.Error("no fixture cluster deploys Keycloak: the test checked nothing")
	}
}

// baseKeycloakOperatorGroup is the OperatorGroup of the Keycloak operator
// at base 2026.01 (applications/base/services/keycloak/10-operator/
// operatorgroup.yaml).
const baseKeycloakOperatorGroup = `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: keycloak-operator-group
  namespace: keycloak
spec:
  targetNamespaces:
    - keycloak
`

// TestKeycloakFollowsItsNamespace: with its namespace overridden, Keycloak
// is served by an operator watching that namespace (an OperatorGroup's
// targetNamespaces are the namespaces its operators watch) and reaches
// its database there: the Zalando operator's Service postgres-cluster,
// named after the postgresql, in the postgresql's namespace. The base
// names namespace keycloak in both, which a Flux target namespace does not
// change.
func TestKeycloakFollowsItsNamespace(t *testing.T) {
	p := planEdited(t, fixtureConfigs(t)[0], func(c *config.Config) {
		kc := *c.OpenCenter.Services.Keycloak
		kc.Namespace = "idp"
		c.OpenCenter.Services.Keycloak = &kc
		if po := c.OpenCenter.Services.PostgresOperator; po != nil {
			p := *po
			p.WatchedNamespaces = nil // all: the database's namespace moves too
			c.OpenCenter.Services.PostgresOperator = &p
		}
	})
	og := patchedBy(t, fileData(t, p, "services/keycloak/10-operator/kustomization.yaml"), baseKeycloakOperatorGroup)
	if got, _ := field(og, "spec", "targetNamespaces").([]any); len(got) != 1 || got[0] != "idp" {
		t.Errorf("the Keycloak operator watches %v, and the Keycloak CR is in idp", got)
	}
	cr := patchedBy(t, fileData(t, p, "services/keycloak/20-keycloak/kustomization.yaml"), baseKeycloak)
	u, err := url.Parse(strings.TrimPrefix(str(cr, "spec", "db", "url"), "jdbc:"))
	if err != nil || u.Hostname() != "postgres-cluster.idp.svc.cluster.local" {
		t.Errorf("Keycloak connects to %s, and its database is postgres-cluster in idp", str(cr, "spec", "db", "url"))
	}
}
