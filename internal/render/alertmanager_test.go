package render

import (
	"fmt"
	"net/url"
	"testing"

	"go.yaml.in/yaml/v3"
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
