package plan

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// baseAlertmanagerConfig is alertmanager.config in the values the base's
// kube-prometheus-stack HelmRelease reads after its own values.yaml (2026.01
// and main: applications/base/services/observability/kube-prometheus-stack/
// helm-values/alertmanager-overrides.yaml), as far as the receivers go.
const baseAlertmanagerConfig = `
route:
  group_by: [namespace, alertname]
  routes:
    - receiver: "null"
      matchers: [alertname = "Watchdog"]
    - receiver: warning_alerts_receiver
      continue: false
      matchers: [severity =~ "warning"]
    - receiver: warning_alerts_receiver
      continue: false
      matchers: [severity =~ "critical"]
receivers:
  - name: "null"
  - name: warning_alerts_receiver
    msteams_configs:
      - send_resolved: true
        webhook_url: ""
`

// alertmanagerURLFields are, by integration, the URL that Alertmanager
// v0.28.1 (kube-prometheus-stack 77.6.0's image; prometheus-operator
// v0.85.0 loads the configuration with the same package before it creates
// an Alertmanager) requires unless the field named by file is set:
// config/notifiers.go, each config's UnmarshalYAML. (Slack is left out: its
// api_url may come from the global section.)
var alertmanagerURLFields = map[string]struct{ url, file string }{
	"msteams_configs":   {"webhook_url", "webhook_url_file"},
	"msteamsv2_configs": {"webhook_url", "webhook_url_file"},
	"webhook_configs":   {"url", "url_file"},
	"discord_configs":   {"webhook_url", "webhook_url_file"},
}

// TestAlertmanagerConfigLoads: the Alertmanager configuration that Helm
// makes of the base's values and the overlay's loads. Values merge as Helm
// merges them: maps key by key, and a list replaces the list under it.
func TestAlertmanagerConfigLoads(t *testing.T) {
	seen := 0
	for _, p := range corpusPlans(t) {
		f, ok := p.File("services/kube-prometheus-stack/helm-values/override-values.yaml")
		if !ok {
			continue
		}
		seen++
		var base, ours map[string]any
		if err := yaml.Unmarshal([]byte(baseAlertmanagerConfig), &base); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(f.Data, &ours); err != nil {
			t.Fatal(err)
		}
		cfg := helmMerge(base, field(ours, "alertmanager", "config"))
		for _, problem := range alertmanagerConfigProblems(cfg.(map[string]any)) {
			t.Errorf("%s: Alertmanager refuses its configuration: %s", p.Cluster, problem)
		}
	}
	if seen == 0 {
		t.Error("no fixture cluster deploys kube-prometheus-stack: the test checked nothing")
	}
	// The base's configuration alone is refused: the test can fail.
	var base map[string]any
	if err := yaml.Unmarshal([]byte(baseAlertmanagerConfig), &base); err != nil {
		t.Fatal(err)
	}
	if len(alertmanagerConfigProblems(base)) == 0 {
		t.Error("the base's configuration passes: alertmanagerConfigProblems checks nothing")
	}
}

// helmMerge merges over onto base as Helm merges values.
func helmMerge(base, over any) any {
	b, ok1 := base.(map[string]any)
	o, ok2 := over.(map[string]any)
	if !ok1 || !ok2 {
		if over == nil {
			return base
		}
		return over
	}
	out := map[string]any{}
	for k, v := range b {
		out[k] = v
	}
	for k, v := range o {
		out[k] = helmMerge(b[k], v)
	}
	return out
}

// alertmanagerConfigProblems lists what of cfg Alertmanager refuses to
// load: a route naming no receiver (config/config.go, checkReceiver), and an
// integration without a valid URL (config/config.go, parseURL: http or
// https, with a host).
func alertmanagerConfigProblems(cfg map[string]any) []string {
	var problems []string
	names := map[string]bool{}
	receivers, _ := cfg["receivers"].([]any)
	for _, r := range receivers {
		r, _ := r.(map[string]any)
		name := str(r, "name")
		names[name] = true
		for integration, fields := range alertmanagerURLFields {
			configs, _ := r[integration].([]any)
			for _, c := range configs {
				c, _ := c.(map[string]any)
				if str(c, fields.file) != "" {
					continue
				}
				u, err := url.Parse(str(c, fields.url))
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					problems = append(problems, fmt.Sprintf("receiver %s: %s: %s %q is no http or https URL with a host", name, integration, fields.url, str(c, fields.url)))
				}
			}
		}
	}
	var walk func(route map[string]any)
	walk = func(route map[string]any) {
		if r := str(route, "receiver"); r != "" && !names[r] {
			problems = append(problems, "route to receiver "+r+", which is not defined")
		}
		routes, _ := route["routes"].([]any)
		for _, sub := range routes {
			sub, _ := sub.(map[string]any)
			walk(sub)
		}
	}
	route, _ := cfg["route"].(map[string]any)
	walk(route)
	return problems
}

// TestPublishedAlertmanagerAsksForLogin: Alertmanager takes no login of
// its own, so in every corpus plan the HTTPRoute that publishes it is the
// target of one Envoy Gateway SecurityPolicy in its namespace asking for
// basic authentication, whose Secret the plan renders there with the key
// Envoy Gateway reads (.htpasswd), or the config names as existing;
// unless the config says alertmanager_auth: none, and then of none.
func TestPublishedAlertmanagerAsksForLogin(t *testing.T) {
	const backend = "observability-kube-prometh-alertmanager"
	guarded, open := 0, 0
	for _, ct := range corpusTargets(t) {
		f := checkedDoc(t, ct.name, ct.doc)
		p, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatalf("planning %s: %v", ct.name, err)
		}
		var routes, policies []map[string]any
		secrets := map[string][]string{} // namespace/name -> keys
		for _, pf := range p.Files {
			for _, obj := range documents(t, pf.Path, pf.Data) {
				switch str(obj, "kind") {
				case "HTTPRoute":
					routes = append(routes, obj)
				case "SecurityPolicy":
					policies = append(policies, obj)
				case "Secret":
					at := str(obj, "metadata", "namespace") + "/" + str(obj, "metadata", "name")
					secrets[at] = append(secrets[at], secretKeys(obj)...)
				}
			}
		}
		kps := f.Config.OpenCenter.Services.KubePrometheusStack
		for _, r := range routes {
			if !routesTo(r, backend) {
				continue
			}
			ns, name := str(r, "metadata", "namespace"), str(r, "metadata", "name")
			var guards []map[string]any
			for _, sp := range policies {
				refs, _ := field(sp, "spec", "targetRefs").([]any)
				for _, ref := range refs {
					m := ref.(map[string]any)
					if str(sp, "metadata", "namespace") == ns && str(m, "group") == "gateway.networking.k8s.io" && str(m, "kind") == "HTTPRoute" && str(m, "name") == name {
						guards = append(guards, sp)
					}
				}
			}
			if kps.AlertmanagerAuth == config.AlertmanagerAuthNone {
				if len(guards) != 0 {
					t.Errorf("%s: alertmanager_auth none, yet %d SecurityPolicies guard route %s/%s", ct.name, len(guards), ns, name)
				}
				open++
				continue
			}
			if len(guards) != 1 {
				t.Errorf("%s: route %s/%s publishes Alertmanager, guarded by %d SecurityPolicies, want 1", ct.name, ns, name, len(guards))
				continue
			}
			users := str(guards[0], "spec", "basicAuth", "users", "name")
			switch {
			case users == "":
				t.Errorf("%s: SecurityPolicy %s/%s asks for no basic authentication", ct.name, ns, str(guards[0], "metadata", "name"))
			case users == kps.AlertmanagerHtpasswdExistingSecret:
			case !slices.Contains(secrets[ns+"/"+users], ".htpasswd"):
				t.Errorf("%s: SecurityPolicy %s/%s reads Secret %s, which the plan does not render in %s with the key .htpasswd", ct.name, ns, str(guards[0], "metadata", "name"), users, ns)
			}
			guarded++
		}
	}
	t.Logf("published Alertmanagers: %d guarded, %d open", guarded, open)
	if guarded == 0 || open == 0 {
		t.Errorf("published Alertmanagers: %d guarded, %d open; the corpus should hold both", guarded, open)
	}
}

// TestAlertmanagerLoginsWithoutGateway: with no cluster Gateway nothing
// publishes Alertmanager, so its logins, which the config may keep for
// when the Gateway is on again, are not rendered either.
func TestAlertmanagerLoginsWithoutGateway(t *testing.T) {
	p := labPlan(t, "", "kube-prometheus-stack: {enabled: true, alertmanager_hostname: alerts.lab.example.com}",
		"kube-prometheus-stack: {alertmanager_htpasswd: 'alerts:{SHA}qX4tq0yvQ0XSAU8Me62Uzf3gy4c='}")
	for _, f := range []string{"alertmanager-httproute.yaml", "alertmanager-basic-auth.yaml"} {
		if f = "services/kube-prometheus-stack/" + f; hasFile(p, f) {
			t.Errorf("%s is rendered without the cluster Gateway", f)
		}
	}
}
