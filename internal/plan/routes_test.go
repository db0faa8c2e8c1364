package plan

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/fluxsim"
	"github.com/opencenter-dev/opencenter/internal/gatewayapi"
)

// serviceMaker is the maker of a Service something we render names (an
// HTTPRoute's backend, an in-cluster URL in a unit's values): a chart, at
// the version read, that names the Service after its Helm release, or an
// operator that names it after its custom resource.
type serviceMaker struct {
	chart, version string // the chart; "" for an operator's Service
	kind           string // the custom resource an operator makes the Service for
	service        func(owner string) string
	port           int
	source         string // where the maker says so
}

// helmFullname is the fullname helper of helm create's _helpers.tpl, which
// these charts keep: the release name when it contains the chart's name,
// else <release>-<name>, cut to max characters without a trailing '-'.
func helmFullname(release, name string, max int) string {
	full := release
	if !strings.Contains(release, name) {
		full = release + "-" + name
	}
	return strings.TrimSuffix(full[:min(len(full), max)], "-")
}

// serviceMakers are the Services we name, as their makers name them at
// the versions the base (or our own HelmRelease) installs, by what names
// them: an HTTPRoute's namespace/name, or a unit's values path
// (<unit>:<path>, [] for a list's items) holding an in-cluster URL. A
// version that moves fails TestReferencesReachTheirServices until the
// chart is read again.
var serviceMakers = map[string]serviceMaker{
	"headlamp/headlamp": {chart: "headlamp", version: "0.35.0", port: 80,
		service: func(r string) string { return helmFullname(r, "headlamp", 63) },
		source:  "headlamp-helm-0.35.0 charts/headlamp: templates/service.yaml (headlamp.fullname), values.yaml service.port"},
	"observability/grafana": {chart: "kube-prometheus-stack", version: "77.6.0", port: 80,
		service: func(r string) string { return helmFullname(r, "grafana", 63) },
		source:  "kube-prometheus-stack-77.6.0 requires grafana 9.4.4; grafana-9.4.4 charts/grafana: templates/service.yaml (grafana.fullname), values.yaml service.port"},
	"observability/alertmanager": {chart: "kube-prometheus-stack", version: "77.6.0", port: 9093,
		service: func(r string) string { return helmFullname(r, "kube-prometheus-stack", 26) + "-alertmanager" },
		source:  "kube-prometheus-stack-77.6.0: templates/_helpers.tpl (fullname cut to 26), templates/alertmanager/service.yaml, values.yaml alertmanager.service.port"},
	"longhorn-system/longhorn-ui": {chart: "longhorn", version: "1.11.0", port: 80,
		service: func(string) string { return "longhorn-frontend" },
		source:  "longhorn chart 1.11.0: templates/deployment-ui.yaml (Service longhorn-frontend, a fixed name; port http 80, to the UI's 8000)"},
	"flux-system/weave-gitops": {chart: "weave-gitops", version: "4.0.x", port: 9001,
		service: func(r string) string { return helmFullname(r, "weave-gitops", 63) },
		source:  "weave-gitops charts/gitops-server, every 4.0.x: templates/service.yaml (chart.fullname), values.yaml service.port"},
	"harbor/harbor": {chart: "harbor", version: "1.17.2", port: 80,
		service: func(string) string { return "harbor" },
		source:  "harbor-helm v1.17.2: templates/nginx/service.yaml (expose.type clusterIP: expose.clusterIP.name, harbor in the base's values; port http, httpPort 80, to nginx's 8080, plain HTTP with expose.tls.enabled false)"},
	"keycloak/keycloak": {kind: "Keycloak", port: 8080,
		service: func(cr string) string { return cr + "-service" },
		source:  "keycloak operator 26.x KeycloakServiceDependentResource: <name>-service, port http (httpPort 8080) while http.httpEnabled"},
	"kube-prometheus-stack:prometheus.prometheusSpec.remoteWrite[].url": {chart: "mimir-distributed", version: "6.0.3", port: 80,
		service: func(r string) string { return helmFullname(r, "mimir", 63) + "-gateway" },
		source:  "mimir-distributed 6.0.3: _helpers.tpl mimir.fullname (infix mimir), mimir.gateway.service.name, gateway.service.port; the base enables the gateway"},
	"alert-proxy:stringData.alert_manager_url": {chart: "kube-prometheus-stack", version: "77.6.0", port: 9093,
		service: func(r string) string { return helmFullname(r, "kube-prometheus-stack", 26) + "-alertmanager" },
		source:  "kube-prometheus-stack-77.6.0: templates/_helpers.tpl (fullname cut to 26), templates/alertmanager/service.yaml, values.yaml alertmanager.service.port"},
	"kube-prometheus-stack:alertmanager.config.receivers[].webhook_configs[].url": {chart: "./helm", port: 80,
		service: func(r string) string { return helmFullname(r, "alert-proxy", 63) },
		source:  "rackerlabs/alert-proxy main (86b254a) helm/: templates/_helpers.tpl alert-proxy.fullname, templates/service.yaml, values.yaml service.port; src/apps/process_alert serves /alert/process"},
	"opentelemetry-kube-stack:instrumentation.exporter.endpoint": {chart: "opentelemetry-kube-stack", version: "0.11.1", port: 4318,
		service: func(r string) string { return helmFullname(r, "daemon", 63) + "-collector" },
		source:  "opentelemetry-kube-stack-0.11.1 templates/collector.yaml (collectorFullname: <release>-<suffix>, the base's daemon collector); the operator's Service <name>-collector, OTLP/HTTP on the base's receiver port 4318"},
}

// TestReferencesReachTheirServices holds every Service name the fixture
// clusters render (an HTTPRoute's backend, an in-cluster URL in a unit's
// values) to the Service its maker creates: the chart, for the Helm
// release as helm-controller names it (helmv2's GetReleaseName, as the
// base index reads the base's HelmReleases and ours), or the operator, for
// the custom resource the base applies. A route to a Service nobody
// creates answers 500; a URL to one fails to resolve.
func TestReferencesReachTheirServices(t *testing.T) {
	indexes := baseIndexes(t)
	checked := map[string]bool{}
	for _, p := range corpusPlans(t) {
		var refs []serviceRef
		var releases []baseindex.HelmRelease   // what installs charts: the base's the cluster applies, and ours
		var objects []baseindex.Object         // the base's, for the operators' custom resources
		bases := map[string]*baseindex.Index{} // by GitRepository name
		var units []map[string]any
		forked := false // units follow a fork, whose releases no index knows
		for _, f := range p.Files {
			if dir, _, ok := strings.Cut(f.Path, "/helm-values/"); ok {
				var values any
				if err := yaml.Unmarshal(f.Data, &values); err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				refs = append(refs, inClusterURLs(path.Base(dir), values, "")...)
				continue
			}
			for _, obj := range documents(t, f.Path, f.Data) {
				switch str(obj, "kind") {
				case "HTTPRoute":
					refs = append(refs, routeRefs(obj)...)
				case "Secret": // settings a chart reads from a Secret
					refs = append(refs, inClusterURLs(path.Base(path.Dir(f.Path)), obj["stringData"], "stringData")...)
				case "HelmRelease":
					releases = append(releases, baseindex.HelmReleaseOf(fluxbuild.Object{Name: str(obj, "metadata", "name"), Namespace: str(obj, "metadata", "namespace"), Body: obj}))
				case "Kustomization":
					units = append(units, obj)
				case "GitRepository":
					forked = forked || str(obj, "spec", "url") == forkURL
					if !strings.Contains(str(obj, "spec", "url"), "openCenter-gitops-base") {
						continue
					}
					x := indexes[str(obj, "spec", "ref", "tag")+str(obj, "spec", "ref", "branch")]
					if x == nil {
						t.Fatalf("%s: base %s has no committed index", p.Cluster, str(obj, "metadata", "name"))
					}
					bases[str(obj, "metadata", "name")] = x
					for _, d := range x.Dirs { // overlays build base paths into their own units
						objects = append(objects, d.Objects...)
					}
				}
			}
		}
		for _, u := range units { // the releases of the base paths Flux units apply
			if x := bases[str(u, "spec", "sourceRef", "name")]; x != nil {
				if d, ok := x.Dir(strings.TrimPrefix(str(u, "spec", "path"), "./")); ok {
					releases = append(releases, d.HelmReleases...)
				}
			}
		}
		if forked {
			continue
		}
		for _, r := range refs {
			checked[r.key] = true
			for _, want := range servicesOf(r, releases, objects) {
				if r.service != want {
					t.Errorf("%s: %s names Service %s in %s; its maker creates %s", p.Cluster, r.what, r.service, r.namespace, want)
				}
			}
		}
	}
	for key := range serviceMakers {
		if !checked[key] {
			t.Errorf("no fixture cluster renders %s: its maker's record is not checked", key)
		}
	}
}

// serviceRef is a Service something we render names, as name:port.
type serviceRef struct {
	key, what, namespace, service string
}

// routeRefs are the backends of an HTTPRoute, in its namespace.
func routeRefs(route map[string]any) []serviceRef {
	ns := str(route, "metadata", "namespace")
	key := ns + "/" + str(route, "metadata", "name")
	var out []serviceRef
	rules, _ := field(route, "spec", "rules").([]any)
	for _, rule := range rules {
		backends, _ := field(rule.(map[string]any), "backendRefs").([]any)
		for _, b := range backends {
			b := b.(map[string]any)
			out = append(out, serviceRef{key, "HTTPRoute " + key, ns, fmt.Sprintf("%s:%v", str(b, "name"), b["port"])})
		}
	}
	return out
}

// inClusterURLs are the URLs in a unit's values whose host is a Service's
// cluster DNS name (<name>.<namespace>.svc, .cluster.local or not).
func inClusterURLs(unit string, v any, at string) []serviceRef {
	var out []serviceRef
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			out = append(out, inClusterURLs(unit, x, strings.TrimPrefix(at+"."+k, "."))...)
		}
	case []any:
		for _, x := range v {
			out = append(out, inClusterURLs(unit, x, at+"[]")...)
		}
	case string:
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			break
		}
		labels := strings.Split(strings.TrimSuffix(u.Hostname(), ".cluster.local"), ".")
		if len(labels) != 3 || labels[2] != "svc" {
			break
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
		}
		key := unit + ":" + at
		out = append(out, serviceRef{key, key + " (" + v + ")", labels[1], labels[0] + ":" + port})
	}
	return out
}

// servicesOf returns the Service, name:port, that each maker of the
// reference's Service creates in its namespace, or what is wrong: a maker
// not read, or not installed there.
func servicesOf(r serviceRef, releases []baseindex.HelmRelease, objects []baseindex.Object) []string {
	b, ok := serviceMakers[r.key]
	if !ok {
		return []string{"a Service of a chart or operator no one has read: add " + r.key + " to serviceMakers"}
	}
	var want []string
	if b.kind != "" {
		for _, o := range objects {
			if o.Kind == b.kind && o.Namespace == r.namespace {
				want = append(want, fmt.Sprintf("%s:%d", b.service(o.Name), b.port))
			}
		}
	}
	for _, h := range releases {
		if b.kind != "" || h.Chart != b.chart || h.ReleaseNamespace != r.namespace {
			continue
		}
		if h.Version != b.version {
			want = append(want, fmt.Sprintf("a Service of chart %s %s, not read (%s was): read it again and update serviceMakers", h.Chart, h.Version, b.version))
			continue
		}
		want = append(want, fmt.Sprintf("%s:%d", b.service(h.Release), b.port))
	}
	if len(want) == 0 {
		return []string{"nothing: no release or resource of " + cmpOr(b.chart, b.kind) + " is installed in " + r.namespace}
	}
	return slices.Compact(want)
}

// TestRoutesAttach: every HTTPRoute the corpus renders is accepted by the
// Gateway it names, as Envoy Gateway attaches routes (listener port and
// name, namespaces, hostnames), its backends in other namespaces are
// granted, every SecurityPolicy has its target and its logins Secret
// (rendered, or named as existing), and every HTTPS listener its
// certificate.
func TestRoutesAttach(t *testing.T) {
	routes := 0
	for _, cp := range corpusConfigPlans(t) {
		p := cp.plan
		var objs []fluxbuild.Object
		for _, pf := range p.Files {
			for _, m := range documents(t, pf.Path, pf.Data) {
				o := fluxbuild.Object{APIVersion: str(m, "apiVersion"), Kind: str(m, "kind"), Name: str(m, "metadata", "name"), Namespace: str(m, "metadata", "namespace"), Body: m, File: pf.Path}
				if o.Kind == "HTTPRoute" {
					routes++
				}
				objs = append(objs, o)
			}
		}
		for _, e := range fluxsim.GatewayProblems(objs, ExistingSecrets(p, cp.file.Config), ExistingClusterIssuers(p, cp.file.Config)) {
			t.Errorf("%s: %s", p.Config, e)
		}
	}
	t.Logf("%d routes", routes)
	if routes == 0 {
		t.Error("the corpus renders no HTTPRoute")
	}
}

// TestLoginRoutesServeHTTPSOnly: the routes to the pages that ask for a
// login (Grafana's own, the Gateway's basic authentication before
// Alertmanager, Headlamp's token or OIDC, Weave GitOps' admin, Harbor's
// portal and registry, Keycloak where its address is https) attach only
// to the Gateway's listeners on port 443, which validation holds to HTTPS:
// no login crosses port 80 in clear text. On port 80 their names are
// redirected to HTTPS, and a redirect never names no host (every name).
func TestLoginRoutesServeHTTPSOnly(t *testing.T) {
	const redirect = "map[filters:[map[requestRedirect:map[scheme:https statusCode:301] type:RequestRedirect]]]"
	logins := []string{"observability-kube-prometh-alertmanager", "observability-kube-prometheus-stack-grafana", "headlamp", "weave-gitops", "harbor", "keycloak-service"}
	seen := map[string]int{}
	for _, p := range corpusPlans(t) {
		var routes []map[string]any
		var redirected []any // the names a route on port 80 redirects to HTTPS
		var plain []string   // the hostnames of the Gateway's HTTP listeners on port 80
		var ports []string   // the ports of its HTTP listeners
		for _, pf := range p.Files {
			for _, obj := range documents(t, pf.Path, pf.Data) {
				if str(obj, "kind") == "Gateway" {
					for _, l := range field(obj, "spec", "listeners").([]any) {
						l := l.(map[string]any)
						if l["protocol"] == "HTTP" {
							ports = append(ports, fmt.Sprint(l["port"]))
						}
						if l["protocol"] == "HTTP" && fmt.Sprint(l["port"]) == "80" {
							plain = append(plain, str(l, "hostname"))
						}
					}
				}
				if str(obj, "kind") != "HTTPRoute" {
					continue
				}
				routes = append(routes, obj)
				if rules, _ := field(obj, "spec", "rules").([]any); len(rules) != 1 || fmt.Sprint(rules[0]) != redirect {
					continue
				}
				hosts, _ := field(obj, "spec", "hostnames").([]any)
				if len(hosts) == 0 {
					t.Errorf("%s: %s redirects every name to HTTPS", p.Config, pf.Path)
				}
				// On an HTTPS listener it would send HTTPS to itself, forever.
				for _, port := range parentPorts(obj) {
					if !slices.Contains(ports, port) {
						t.Errorf("%s: %s redirects on port %s, which has no HTTP listener (HTTP listeners' ports: %v)", p.Config, pf.Path, port, ports)
					}
				}
				if slices.Contains(parentPorts(obj), "80") {
					redirected = append(redirected, hosts...)
				}
			}
		}
		// Keycloak's login is its own only where its address is https on
		// the route's name: behind a proxy of its own, the proxy's.
		kc, _ := p.File("services/keycloak/20-keycloak/kustomization.yaml")
		keycloak := string(kc.Data)
		for _, r := range routes {
			for _, svc := range logins {
				if !routesTo(r, svc) {
					continue
				}
				name := str(r, "metadata", "name")
				if hosts, _ := field(r, "spec", "hostnames").([]any); svc == "keycloak-service" && !strings.Contains(keycloak, fmt.Sprintf("hostname: https://%s\n", hosts[0])) {
					if ports := parentPorts(r); !slices.Equal(ports, []string{"<nil>"}) {
						t.Errorf("%s: route %s, to a Keycloak whose address is elsewhere, attaches to ports %v, not every listener", p.Config, name, ports)
					}
					seen["keycloak-service behind a proxy"]++
					continue
				}
				seen[svc]++
				if ports := parentPorts(r); !slices.Equal(ports, []string{"443"}) {
					t.Errorf("%s: route %s attaches to ports %v, not 443 alone", p.Config, name, ports)
				}
				hosts, _ := field(r, "spec", "hostnames").([]any)
				for _, h := range hosts {
					// Plain HTTP reaches the name when a listener on port 80 matches it.
					served := slices.ContainsFunc(plain, func(l string) bool { return gatewayapi.HostnameMatches(l, h.(string)) })
					if served != slices.Contains(redirected, h) {
						t.Errorf("%s: port 80 serves %s (route %s's name): %v, but redirects it to HTTPS: %v", p.Config, h, name, served, !served)
					}
				}
			}
		}
	}
	t.Logf("login routes: %v", seen)
	if len(seen) != len(logins)+1 {
		t.Errorf("login routes seen: %v; the corpus should publish all of %v", seen, logins)
	}
}

// parentPorts returns the ports an HTTPRoute's parentRefs name ("<nil>"
// for none: every port).
func parentPorts(route map[string]any) []string {
	var out []string
	parents, _ := field(route, "spec", "parentRefs").([]any)
	for _, pr := range parents {
		out = append(out, fmt.Sprint(pr.(map[string]any)["port"]))
	}
	return out
}

// routesTo reports whether an HTTPRoute sends requests to the Service svc.
func routesTo(route map[string]any, svc string) bool {
	return slices.ContainsFunc(routeRefs(route), func(r serviceRef) bool { return strings.HasPrefix(r.service, svc+":") })
}
