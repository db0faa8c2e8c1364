package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
)

// routeBackend is the maker of the Service an HTTPRoute we render sends
// traffic to: a chart, at the version read, that names the Service after
// its Helm release, or an operator that names it after its custom
// resource.
type routeBackend struct {
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

// routeBackends are, by namespace/name of the HTTPRoute, the Services
// those routes send traffic to, as their makers name them at the versions
// the base (or our own HelmRelease) installs. A version that moves fails
// TestRoutesReachTheirServices until the chart is read again.
var routeBackends = map[string]routeBackend{
	"headlamp/headlamp": {chart: "headlamp", version: "0.35.0", port: 80,
		service: func(r string) string { return helmFullname(r, "headlamp", 63) },
		source:  "headlamp-helm-0.35.0 charts/headlamp: templates/service.yaml (headlamp.fullname), values.yaml service.port"},
	"observability/grafana": {chart: "kube-prometheus-stack", version: "77.6.0", port: 80,
		service: func(r string) string { return helmFullname(r, "grafana", 63) },
		source:  "kube-prometheus-stack-77.6.0 requires grafana 9.4.4; grafana-9.4.4 charts/grafana: templates/service.yaml (grafana.fullname), values.yaml service.port"},
	"observability/alertmanager": {chart: "kube-prometheus-stack", version: "77.6.0", port: 9093,
		service: func(r string) string { return helmFullname(r, "kube-prometheus-stack", 26) + "-alertmanager" },
		source:  "kube-prometheus-stack-77.6.0: templates/_helpers.tpl (fullname cut to 26), templates/alertmanager/service.yaml, values.yaml alertmanager.service.port"},
	"flux-system/weave-gitops": {chart: "weave-gitops", version: "4.0.x", port: 9001,
		service: func(r string) string { return helmFullname(r, "weave-gitops", 63) },
		source:  "weave-gitops charts/gitops-server, every 4.0.x: templates/service.yaml (chart.fullname), values.yaml service.port"},
	"keycloak/keycloak": {kind: "Keycloak", port: 8080,
		service: func(cr string) string { return cr + "-service" },
		source:  "keycloak operator 26.x KeycloakServiceDependentResource: <name>-service, port http (httpPort 8080) while http.httpEnabled"},
}

// TestRoutesReachTheirServices holds every HTTPRoute of every fixture
// cluster to the Service its backend names: the one the chart creates for
// the Helm release as helm-controller names it (helmv2's GetReleaseName,
// from the base index or the HelmRelease we render), or the one the
// operator creates for the custom resource the base applies. A route to a
// Service nobody creates is accepted by the Gateway and answers 500.
func TestRoutesReachTheirServices(t *testing.T) {
	indexes := baseIndexes(t)
	checked := 0
	for _, n := range fixtureConfigs(t) {
		p := plan(t, n)
		var routes []map[string]any
		var releases []baseindex.HelmRelease // what installs charts: the base's and ours
		var objects []baseindex.Object
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				switch str(obj, "kind") {
				case "HTTPRoute":
					routes = append(routes, obj)
				case "HelmRelease":
					releases = append(releases, renderedRelease(t, obj))
				case "GitRepository":
					if !strings.Contains(str(obj, "spec", "url"), "openCenter-gitops-base") {
						continue
					}
					x := indexes[str(obj, "spec", "ref", "tag")+str(obj, "spec", "ref", "branch")]
					if x == nil {
						t.Fatalf("%s: base %s has no committed index", p.Cluster, str(obj, "metadata", "name"))
					}
					for _, d := range x.Dirs {
						releases = append(releases, d.HelmReleases...)
						objects = append(objects, d.Objects...)
					}
				}
			}
		}
		for _, r := range routes {
			key := str(r, "metadata", "namespace") + "/" + str(r, "metadata", "name")
			rules, _ := field(r, "spec", "rules").([]any)
			for _, rule := range rules {
				refs, _ := field(rule.(map[string]any), "backendRefs").([]any)
				for _, ref := range refs {
					ref := ref.(map[string]any)
					got := fmt.Sprintf("%s:%v", str(ref, "name"), ref["port"])
					checked++
					for _, want := range backendsOf(key, releases, objects) {
						if got != want {
							t.Errorf("%s: HTTPRoute %s sends traffic to Service %s; its maker creates %s", p.Cluster, key, got, want)
						}
					}
				}
			}
		}
	}
	if checked < 5 {
		t.Errorf("%d route backends checked: the fixture routes to headlamp, grafana, alertmanager, weave-gitops and keycloak", checked)
	}
}

// backendsOf returns the Service, name:port, that each maker of the route
// key's backend creates in the route's namespace, failing a route whose
// maker is not read or not installed.
func backendsOf(key string, releases []baseindex.HelmRelease, objects []baseindex.Object) []string {
	ns, _, _ := strings.Cut(key, "/")
	b, ok := routeBackends[key]
	if !ok {
		return []string{"a Service of a chart or operator no one has read: add the route to routeBackends"}
	}
	var want []string
	if b.kind != "" {
		for _, o := range objects {
			if o.Kind == b.kind && o.Namespace == ns {
				want = append(want, fmt.Sprintf("%s:%d", b.service(o.Name), b.port))
			}
		}
	}
	for _, h := range releases {
		if b.kind != "" || h.Chart != b.chart || h.ReleaseNamespace != ns {
			continue
		}
		if h.Version != b.version {
			want = append(want, fmt.Sprintf("a Service of chart %s %s, not read (%s was): read it again and update routeBackends", h.Chart, h.Version, b.version))
			continue
		}
		want = append(want, fmt.Sprintf("%s:%d", b.service(h.Release), b.port))
	}
	if len(want) == 0 {
		return []string{"nothing: no release or resource of " + cmpOr(b.chart, b.kind) + " is installed in " + ns}
	}
	return slices.Compact(want)
}

// renderedRelease reads a HelmRelease the overlay renders as the index
// records the base's.
func renderedRelease(t *testing.T, obj map[string]any) baseindex.HelmRelease {
	t.Helper()
	data, err := sigsyaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var hr helmv2.HelmRelease
	if err := sigsyaml.Unmarshal(data, &hr); err != nil {
		t.Fatalf("HelmRelease %s: %v", hr.Name, err)
	}
	h := baseindex.HelmRelease{Name: hr.Name, Namespace: hr.Namespace, Release: hr.GetReleaseName(), ReleaseNamespace: hr.GetReleaseNamespace()}
	if hr.Spec.Chart != nil {
		h.Chart, h.Version = hr.Spec.Chart.Spec.Chart, hr.Spec.Chart.Spec.Version
	}
	return h
}
