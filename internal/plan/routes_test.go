package plan

import (
	"fmt"
	"maps"
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
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestReferencesReachTheirServices holds every Service name the corpus
// plans render (an HTTPRoute's backend, an in-cluster URL in a unit's
// values) to the Services their makers create in its namespace (the
// descriptors' services): a chart, for each Helm release of it as
// helm-controller names it (helmv2's GetReleaseName, as the base index
// reads the base's HelmReleases and ours), at the version it was read off,
// or an operator, for each custom resource of its kind the base applies.
// A route to a Service nobody creates answers 500; a URL to one fails to
// resolve. Every maker's record is checked by some plan.
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
			made := servicesMade(r.namespace, releases, objects)
			makers, ok := made[r.service]
			if !ok {
				t.Errorf("%s: %s names Service %s in %s; the Services their makers create there: %v", p.Cluster, r.what, r.service, r.namespace, slices.Sorted(maps.Keys(made)))
				continue
			}
			for _, m := range makers {
				if m.stale != "" {
					t.Errorf("%s: %s names Service %s in %s: %s", p.Cluster, r.what, r.service, r.namespace, m.stale)
				}
				checked[m.key] = true
			}
		}
	}
	n := 0
	for _, u := range generated.Units {
		for i, m := range u.Services {
			n++
			if !checked[fmt.Sprintf("%s %d", u.Name, i)] {
				t.Errorf("no corpus plan names the Service %s's %s makes (%s, services[%d]): its record is not checked", u.Name, cmpOr(m.Chart, m.Kind), u.Descriptor, i)
			}
		}
	}
	if n == 0 {
		t.Error("no unit records a Service: the test checked nothing")
	}
}

// made is a maker of a Service: the unit and index of its record, and why
// the record does not hold for this release (its chart moved).
type made struct {
	key, stale string
}

// servicesMade are the Services, name:port, that the catalog's makers
// create in namespace ns for the releases and the base's objects, with
// their makers.
func servicesMade(ns string, releases []baseindex.HelmRelease, objects []baseindex.Object) map[string][]made {
	out := map[string][]made{}
	for _, u := range generated.Units {
		for i, m := range u.Services {
			key := fmt.Sprintf("%s %d", u.Name, i)
			if m.Kind != "" {
				for _, o := range objects {
					if o.Kind == m.Kind && o.Namespace == ns {
						name := fmt.Sprintf("%s:%d", m.Name(o.Name), m.Port)
						out[name] = append(out[name], made{key: key})
					}
				}
				continue
			}
			read := ""
			for _, ch := range u.Charts {
				if ch.Chart == m.Chart {
					read = ch.Version
				}
			}
			for _, h := range releases {
				if h.Chart != m.Chart || h.ReleaseNamespace != ns {
					continue
				}
				name := fmt.Sprintf("%s:%d", m.Name(h.Release), m.Port)
				mk := made{key: key}
				if h.Version != read {
					mk.stale = fmt.Sprintf("a Service of chart %s %s, not read (%s was): read it again and update %s", h.Chart, h.Version, read, u.Descriptor)
				}
				out[name] = append(out[name], mk)
			}
		}
	}
	return out
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
// login (the descriptors' logins: Grafana's own, the Gateway's basic
// authentication before Alertmanager, Headlamp's token or OIDC, Weave
// GitOps' admin, Harbor's portal and registry, Keycloak where its address
// is https) attach only to the Gateway's listeners on port 443, which
// validation holds to HTTPS: no login crosses port 80 in clear text. On
// port 80 their names are redirected to HTTPS, and a redirect never names
// no host (every name). A login whose condition does not hold there
// (Keycloak behind a proxy of its own) leaves its route on every listener.
func TestLoginRoutesServeHTTPSOnly(t *testing.T) {
	const redirect = "map[filters:[map[requestRedirect:map[scheme:https statusCode:301] type:RequestRedirect]]]"
	seen := map[string]int{}
	for _, cp := range corpusConfigPlans(t) {
		p, c := cp.plan, cp.file.Config
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
		for _, st := range p.Units {
			if !st.Active {
				continue
			}
			for i, l := range st.Unit.Logins {
				host, login := l.Get(c), l.When.Holds(c)
				for _, r := range routes {
					hosts, _ := field(r, "spec", "hostnames").([]any)
					if rules, _ := field(r, "spec", "rules").([]any); host == "" || !slices.Contains(hosts, any(host)) || len(rules) == 1 && fmt.Sprint(rules[0]) == redirect {
						continue
					}
					name := str(r, "metadata", "name")
					if !login {
						seen[fmt.Sprintf("%s logins[%d] (%s)", st.Unit.Name, i, l.When.Text)+" not holding"]++
						if ports := parentPorts(r); !slices.Equal(ports, []string{"<nil>"}) {
							t.Errorf("%s: route %s, to %s where %s does not hold, attaches to ports %v, not every listener", p.Config, name, host, l.When.Text, ports)
						}
						continue
					}
					seen[fmt.Sprintf("%s logins[%d]", st.Unit.Name, i)]++
					if ports := parentPorts(r); !slices.Equal(ports, []string{"443"}) {
						t.Errorf("%s: route %s to login page %s attaches to ports %v, not 443 alone", p.Config, name, host, ports)
					}
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
	}
	t.Logf("login routes: %v", seen)
	n := 0
	for _, u := range generated.Units {
		for i, l := range u.Logins {
			n++
			if seen[fmt.Sprintf("%s logins[%d]", u.Name, i)] == 0 {
				t.Errorf("no corpus plan publishes %s's login page at %s: its record is not checked", u.Name, l.Hostname)
			}
			if l.When.Eval != nil && seen[fmt.Sprintf("%s logins[%d] (%s)", u.Name, i, l.When.Text)+" not holding"] == 0 {
				t.Errorf("no corpus plan publishes %s at %s where %s does not hold", u.Name, l.Hostname, l.When.Text)
			}
		}
	}
	if n == 0 {
		t.Error("no unit records a login page: the test checked nothing")
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
