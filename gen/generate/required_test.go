package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// missing runs config's load checks, the generated ones among them, on c
// and returns the paths of the fields they report required and not set,
// sorted.
func missing(c *config.Config) []string {
	f := &config.File{Name: "test.yaml", Config: c}
	var out []string
	for _, d := range diag.AsList(f.Name, f.Check()) {
		if strings.HasPrefix(d.Msg, "required when ") {
			out = append(out, d.Path)
		}
	}
	slices.Sort(out)
	return out
}

// TestGeneratedRequirements runs the compiled required_when tags: the
// service gate, =, ! and set terms, a switch outside the struct, secrets judged by their service, nil
// pointers on the way, and list elements each reported at its index.
func TestGeneratedRequirements(t *testing.T) {
	reqs, err := check.Requirements(loadModel(t), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, text, by string }{
		{"secrets.services.loki.access_key_id", "services.loki.storage is s3 or swift, unless services.loki.existing_secret is set", "opencenter.services.loki.storage"},
		{"opencenter.services.harbor.hostname", "services.harbor is enabled", "opencenter.services.harbor.enabled"},
		{"secrets.services.kube-prometheus-stack.alertmanager_htpasswd", "services.kube-prometheus-stack.alertmanager_auth is basic and services.gateway is enabled and services.kube-prometheus-stack.alertmanager_hostname is set, unless services.kube-prometheus-stack.alertmanager_htpasswd_existing_secret is set", "opencenter.services.kube-prometheus-stack.alertmanager_hostname"},
		{"opencenter.services.gateway.listeners[].hostname", "services.gateway.listeners[].protocol is HTTPS", "opencenter.services.gateway.listeners[].protocol"},
	} {
		r := reqs[find(loadModel(t).Root, tc.path)]
		if r == nil || r.Text != tc.text || r.By == nil || r.By.Path != tc.by {
			t.Errorf("%s: requirement %+v, want text %q, by %s", tc.path, r, tc.text, tc.by)
			continue
		}
		var f *catalog.Field
		for i := range generated.Fields {
			if generated.Fields[i].Path == tc.path {
				f = &generated.Fields[i]
			}
		}
		if f == nil || f.RequiredWhen != tc.text {
			t.Errorf("%s: the field index's entry %+v does not say it is required when %s", tc.path, f, tc.text)
		}
	}

	on := config.ServiceCommon{Enabled: true}
	cases := []struct {
		name string
		c    func(c *config.Config)
		want []string
	}{
		{"empty config", func(c *config.Config) {}, nil},
		{"loki disabled, on s3", func(c *config.Config) {
			c.OpenCenter.Services.Loki = &config.Loki{Storage: config.StorageS3}
		}, nil},
		{"loki on filesystem", func(c *config.Config) {
			c.OpenCenter.Services.Loki = &config.Loki{ServiceCommon: on, Storage: config.StorageFilesystem}
		}, nil},
		{"loki on s3, nothing set", func(c *config.Config) {
			c.OpenCenter.Services.Loki = &config.Loki{ServiceCommon: on, Storage: config.StorageS3}
		}, []string{"opencenter.services.loki.bucket", "opencenter.services.loki.region", "secrets.services.loki.access_key_id", "secrets.services.loki.secret_access_key"}},
		{"loki on swift with an existing Secret", func(c *config.Config) {
			c.OpenCenter.Services.Loki = &config.Loki{ServiceCommon: on, Storage: config.StorageSwift, Bucket: "b", Region: "r", ExistingSecret: "loki-swift"}
		}, []string{"opencenter.services.loki.endpoint"}},
		{"loki on s3, one key", func(c *config.Config) {
			c.OpenCenter.Services.Loki = &config.Loki{ServiceCommon: on, Storage: config.StorageS3, Bucket: "b", Region: "r"}
			c.Secrets.Services.Loki = &config.LokiSecrets{AccessKeyID: "id"}
		}, []string{"secrets.services.loki.secret_access_key"}},
		{"cert-manager route53 without acme", func(c *config.Config) {
			c.OpenCenter.Services.CertManager = &config.CertManager{Sourced: config.Sourced{ServiceCommon: on}, Issuer: config.CertIssuerNone, DNSProvider: config.DNSProviderRoute53}
		}, nil},
		{"cert-manager acme route53", func(c *config.Config) {
			c.OpenCenter.Services.CertManager = &config.CertManager{Sourced: config.Sourced{ServiceCommon: on}, Issuer: config.CertIssuerACME, DNSProvider: config.DNSProviderRoute53}
		}, []string{"opencenter.services.cert-manager.route53_region", "secrets.services.cert-manager.route53_access_key_id", "secrets.services.cert-manager.route53_secret_access_key"}},
		{"gateway listeners", func(c *config.Config) {
			c.OpenCenter.Services.Gateway = &config.Gateway{ServiceCommon: on, Listeners: []config.GatewayListener{
				{Name: "http", Port: 80, Protocol: config.ListenerHTTP},
				{Name: "https", Port: 443, Protocol: config.ListenerHTTPS, Hostname: "*.example.com"},
			}}
		}, []string{"opencenter.services.gateway.listeners[1].tls_secret_name"}},
		{"alertmanager published", func(c *config.Config) {
			c.OpenCenter.Services.KubePrometheusStack = &config.KubePrometheusStack{ServiceCommon: on, AlertmanagerHostname: "alerts.example.com", AlertmanagerAuth: config.AlertmanagerAuthBasic}
			c.OpenCenter.Services.Gateway = &config.Gateway{ServiceCommon: on}
		}, []string{"secrets.services.kube-prometheus-stack.alertmanager_htpasswd"}},
		{"alertmanager named, no gateway", func(c *config.Config) {
			c.OpenCenter.Services.KubePrometheusStack = &config.KubePrometheusStack{ServiceCommon: on, AlertmanagerHostname: "alerts.example.com", AlertmanagerAuth: config.AlertmanagerAuthBasic}
		}, nil},
		{"alertmanager named, gateway off", func(c *config.Config) {
			c.OpenCenter.Services.KubePrometheusStack = &config.KubePrometheusStack{ServiceCommon: on, AlertmanagerHostname: "alerts.example.com", AlertmanagerAuth: config.AlertmanagerAuthBasic}
			c.OpenCenter.Services.Gateway = &config.Gateway{}
		}, nil},
		{"alertmanager not published", func(c *config.Config) {
			c.OpenCenter.Services.KubePrometheusStack = &config.KubePrometheusStack{ServiceCommon: on, AlertmanagerAuth: config.AlertmanagerAuthBasic}
		}, nil},
		{"customer_managed emit_secret", func(c *config.Config) {
			c.OpenCenter.GitOps.OverlayUnits.CustomerManaged = config.CustomerManaged{Enabled: true, RepositoryName: "apps", RepositoryURL: "https://h/r.git",
				Kustomizations: []config.CustomerKustomization{{Name: "apps", Path: "/apps"}}, EmitSecret: true, SecretName: "apps"}
		}, []string{"secrets.overlay_units.customer_managed.identity", "secrets.overlay_units.customer_managed.identity_pub", "secrets.overlay_units.customer_managed.known_hosts"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &config.Config{}
			tc.c(c)
			if got := missing(c); !slices.Equal(got, tc.want) {
				t.Errorf("missing %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRequiredWhenTagErrors: a required_when tag that does not resolve
// fails generation at the field's declaration.
func TestRequiredWhenTagErrors(t *testing.T) {
	cases := []struct{ path, tag, want string }{
		{"opencenter.services.loki.bucket", "storag=s3", `internal/config/services.go:`},
		{"opencenter.services.loki.bucket", "storag=s3", `opencenter.services.loki.bucket: required_when "storag=s3": "storag" is not a key of opencenter.services.loki (did you mean "storage"?)`},
		{"opencenter.services.loki.bucket", "storage=s4", `"s4" is not a value of storage: expected one of filesystem, s3, swift`},
		{"opencenter.services.loki.bucket", "replicas", "replicas is an int: a term without =values or ! needs a bool, or a string (which must be set)"},
		{"opencenter.services.loki.bucket", "!enabled", "!enabled: enabled is a bool, which is never unset"},
		{"opencenter.services.loki.enabled", "storage=s3", "the key is required anyway (no omitempty)"},
		{"opencenter.services.keycloak.backup_enabled", "enabled", "a bool cannot be required"},
		{"opencenter.services.gateway.listeners[].hostname", "protocol=FTP", `"FTP" is not a value of protocol: expected one of HTTP, HTTPS`},
		{"opencenter.cluster.base_domain", "!cluster_fqdn", "nothing makes the field required"},
		{"opencenter.services.loki.bucket", "opencenter.services.gatway.enabled", `"opencenter.services.gatway.enabled" is not a field of the config`},
		{"opencenter.services.loki.bucket", "opencenter.services.mimir.storage", "a term naming a field outside the struct must be a bool"},
		{"opencenter.services.loki.bucket", "!opencenter.services.gateway.enabled", "a term naming a field outside the struct must be a bool, which must be true"},
		{"opencenter.services.loki.bucket", "opencenter.services.gateway.listeners.x", "is not a field of the config"},
	}
	for _, tc := range cases {
		t.Run(tc.path+" "+tc.tag, func(t *testing.T) {
			m := freshModel(t)
			n := find(m.Root, tc.path)
			if n == nil {
				t.Fatalf("no node %s", tc.path)
			}
			n.RequiredWhen = tc.tag
			_, err := check.Requirements(m, root)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want %q in:\n%v", tc.want, err)
			}
		})
	}
	if _, err := check.Requirements(loadModel(t), root); err != nil {
		t.Errorf("the project's own tags: %v", err)
	}
}

// find returns the node at path in the tree under n ("[]" and ".*" reach
// into list elements and map values), nil if there is none.
func find(n *model.Node, path string) *model.Node {
	if n.Path == path {
		return n
	}
	for _, c := range n.Children {
		if r := find(c, path); r != nil {
			return r
		}
	}
	if n.Elem != nil {
		return find(n.Elem, path)
	}
	return nil
}

// TestGeneratedNotEquals: cert-manager's issuers are applied only when its
// issuer is not none; an absent service makes the condition false.
func TestGeneratedNotEquals(t *testing.T) {
	u := generatedUnit(t, "cert-manager")
	var when catalog.Cond
	for _, fu := range u.FluxUnits {
		if fu.Name == "cert-manager-issuers" {
			when = fu.When
		}
	}
	if when.Eval == nil || when.Text != `opencenter.services.cert-manager.issuer does not equal "none"` {
		t.Fatalf("cert-manager-issuers: when %q", when.Text)
	}
	for _, tc := range []struct {
		cm   *config.CertManager
		want bool
	}{
		{nil, false},
		{&config.CertManager{Issuer: config.CertIssuerNone}, false},
		{&config.CertManager{Issuer: config.CertIssuerACME}, true},
		{&config.CertManager{Issuer: config.CertIssuerSelfSigned}, true},
	} {
		c := &config.Config{}
		c.OpenCenter.Services.CertManager = tc.cm
		if got := when.Eval(c); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.cm, got, tc.want)
		}
	}
}
