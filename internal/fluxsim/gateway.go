package fluxsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/gatewayapi"
)

// API groups of the Gateway API and of Envoy Gateway's policies.
const (
	gatewayGroup = "gateway.networking.k8s.io"
	envoyGroup   = "gateway.envoyproxy.io"
)

// The parts of the Gateway API's objects the checks read. Pointers
// stand for fields whose absence means a default, not "".
type (
	httpRouteSpec struct {
		ParentRefs []parentRef `json:"parentRefs"`
		Hostnames  []string    `json:"hostnames"`
		Rules      []struct {
			BackendRefs []objectRef `json:"backendRefs"`
		} `json:"rules"`
	}
	parentRef struct {
		Group       *string `json:"group"`
		Kind        *string `json:"kind"`
		Namespace   string  `json:"namespace"`
		Name        string  `json:"name"`
		SectionName string  `json:"sectionName"`
		Port        int     `json:"port"`
	}
	objectRef struct {
		Group     *string `json:"group"`
		Kind      *string `json:"kind"`
		Namespace string  `json:"namespace"`
		Name      string  `json:"name"`
	}
	gatewaySpec struct {
		Listeners []listener `json:"listeners"`
	}
	listener struct {
		Name     string `json:"name"`
		Hostname string `json:"hostname"`
		Port     int    `json:"port"`
		Protocol string `json:"protocol"`
		TLS      *struct {
			Mode            string      `json:"mode"`
			CertificateRefs []objectRef `json:"certificateRefs"`
		} `json:"tls"`
		AllowedRoutes *struct {
			Namespaces *struct {
				From     string                `json:"from"`
				Selector *metav1.LabelSelector `json:"selector"`
			} `json:"namespaces"`
			Kinds []objectRef `json:"kinds"`
		} `json:"allowedRoutes"`
	}
	referenceGrantSpec struct {
		From []objectRef `json:"from"`
		To   []objectRef `json:"to"`
	}
	securityPolicySpec struct {
		TargetRef  *objectRef  `json:"targetRef"`
		TargetRefs []objectRef `json:"targetRefs"`
		BasicAuth  *struct {
			Users objectRef `json:"users"`
		} `json:"basicAuth"`
	}
)

// or returns *p, or def when p is nil: the API server's default.
func or(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// GatewayProblems returns what the Gateway API checks of a simulation report for
// objs applied together, as "file: message" lines: a render's objects,
// checked before any build. A reference to a Secret in existing, or to a
// ClusterIssuer in issuers, is met.
func GatewayProblems(objs []fluxbuild.Object, existing []types.NamespacedName, issuers []string) []string {
	s := &sim{r: &Report{}, c: Cluster{ExistingSecrets: existing, ExistingClusterIssuers: issuers}}
	for _, o := range objs {
		s.objects = append(s.objects, &applied{Object: o, key: o.Namespace + "/" + o.Name, ns: o.Namespace})
	}
	index := s.index()
	s.checkGatewayAPI(index, s.certManagers(index))
	out := make([]string, 0, len(s.r.Findings))
	for _, f := range s.r.Findings {
		out = append(out, f.File+": "+f.Message)
	}
	return out
}

// checkGatewayAPI reports what Envoy Gateway would not serve as the objects
// say, following the Gateway API's rules for attaching an HTTPRoute to
// its Gateway (HTTPRoute status reasons NoMatchingParent,
// NotAllowedByListeners, NoMatchingListenerHostname, RefNotPermitted) and
// Envoy Gateway's for a SecurityPolicy, whose missing target leaves the
// route it was meant to guard open; and a Gateway's HTTPS listener
// without its certificate. A Gateway no build produces is info: it may be
// managed outside the repository.
func (s *sim) checkGatewayAPI(index map[objKey][]*applied, cms []certManager) {
	for _, a := range s.objects {
		switch {
		case a.Group() == gatewayGroup && a.Kind == "HTTPRoute":
			var spec httpRouteSpec
			if err := decode(a.Body, &spec); err != nil {
				s.finding(s.owner(a), a.File, "HTTPRoute %s: %v", a.key, err)
				continue
			}
			for i, p := range spec.ParentRefs {
				s.checkParent(a, i, p, spec.Hostnames, index)
			}
			for _, r := range spec.Rules {
				for _, b := range r.BackendRefs {
					s.checkBackend(a, b)
				}
			}
		case a.Group() == envoyGroup && a.Kind == "SecurityPolicy":
			s.checkSecurityPolicy(a, index)
		case a.Group() == gatewayGroup && a.Kind == "Gateway":
			s.checkGatewayTLS(a, index, cms)
		}
	}
}

// checkParent reports a parentRef of route a that its Gateway would not
// accept: no listener the reference selects (by sectionName and port)
// takes HTTPRoutes from the route's namespace for one of its hostnames.
func (s *sim) checkParent(a *applied, i int, p parentRef, hosts []string, index map[objKey][]*applied) {
	if or(p.Group, gatewayGroup) != gatewayGroup || or(p.Kind, "Gateway") != "Gateway" {
		return
	}
	k := objKey{gatewayGroup, "Gateway", cmpOr(p.Namespace, a.ns), p.Name}
	at := fmt.Sprintf("HTTPRoute %s: parentRefs[%d] %s", a.key, i, k)
	found := index[k]
	if len(found) == 0 {
		s.info(s.owner(a), a.File, "%s: no build produces the Gateway; whether it accepts the route is not checked%s", at, s.elsewhere(k))
		return
	}
	var gw gatewaySpec
	if err := decode(found[0].Body, &gw); err != nil {
		return // reported where the Gateway is
	}
	var selected, allowed []listener
	for _, l := range gw.Listeners {
		if (p.SectionName == "" || p.SectionName == l.Name) && (p.Port == 0 || p.Port == l.Port) {
			selected = append(selected, l)
		}
	}
	for _, l := range selected {
		if s.listenerAllows(l, a.ns, found[0].ns) {
			allowed = append(allowed, l)
		}
	}
	var why string
	switch {
	case len(selected) == 0:
		why = "NoMatchingParent: no listener has " + selector(p)
	case len(allowed) == 0:
		why = "NotAllowedByListeners: no listener with " + selector(p) + " takes HTTPRoutes from namespace " + a.ns
	case !slices.ContainsFunc(allowed, func(l listener) bool { return servesAName(l, gw.Listeners, hosts) }):
		why = "NoMatchingListenerHostname: no listener with " + selector(p) + " matches " + strings.Join(hosts, ", ")
	default:
		return
	}
	s.finding(s.owner(a), a.File, "%s does not accept the route (%s; its listeners: %s): Envoy Gateway serves nothing for it there", at, why, describe(gw.Listeners))
}

// selector says which listeners a parentRef selects, for a message.
func selector(p parentRef) string {
	var by []string
	if p.SectionName != "" {
		by = append(by, "name "+p.SectionName)
	}
	if p.Port != 0 {
		by = append(by, "port "+strconv.Itoa(p.Port))
	}
	if len(by) == 0 {
		return "any name or port"
	}
	return strings.Join(by, " and ")
}

// describe lists listeners for a message.
func describe(ls []listener) string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s %s on %d for %s", l.Name, l.Protocol, l.Port, cmpOr(l.Hostname, "any name")))
	}
	return strings.Join(out, ", ")
}

// listenerAllows reports whether listener l takes HTTPRoutes from
// namespace ns, its Gateway being in gwNS: the kinds it allows (by
// default those of its protocol, HTTPRoute for HTTP and HTTPS) and the
// namespaces (by default its Gateway's alone). A namespace selector is
// matched against the labels of the Namespace the builds produce, with
// kubernetes.io/metadata.name, which the API server sets.
func (s *sim) listenerAllows(l listener, ns, gwNS string) bool {
	kinds := l.AllowedRoutes != nil && len(l.AllowedRoutes.Kinds) > 0
	switch {
	case kinds && !slices.ContainsFunc(l.AllowedRoutes.Kinds, func(k objectRef) bool {
		return or(k.Group, gatewayGroup) == gatewayGroup && or(k.Kind, "") == "HTTPRoute"
	}):
		return false
	case !kinds && l.Protocol != "HTTP" && l.Protocol != "HTTPS":
		return false
	}
	from := "Same"
	var sel *metav1.LabelSelector
	if l.AllowedRoutes != nil && l.AllowedRoutes.Namespaces != nil {
		from, sel = cmpOr(l.AllowedRoutes.Namespaces.From, "Same"), l.AllowedRoutes.Namespaces.Selector
	}
	switch from {
	case "All":
		return true
	case "Same":
		return ns == gwNS
	case "Selector":
		selector, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil || sel == nil {
			return false
		}
		set := labels.Set{"kubernetes.io/metadata.name": ns}
		for _, n := range s.objects {
			if n.Group() != "" || n.Kind != "Namespace" || n.Name != ns {
				continue
			}
			ls, _ := fluxbuild.Field(n.Body, "metadata", "labels").(map[string]any)
			for k, v := range ls {
				set[k] = fmt.Sprint(v)
			}
		}
		return selector.Matches(set)
	}
	return false // None
}

// servesAName reports whether listener l, one of its Gateway's listeners
// ls, serves one of a route's hosts, as Envoy Gateway computes it
// (internal/gatewayapi, computeHosts; v1.5.0, the image the base pins, and
// 1.9 agree for a route's exact names): with either side empty, yes;
// otherwise a name is in both when the two are equal or one is a wildcard
// *.d and the other ends in .d with at least one label before it (a
// wildcard too), the narrower being the name served. A name that another
// listener on l's port has as its own hostname is that listener's alone.
func servesAName(l listener, ls []listener, hosts []string) bool {
	if len(hosts) == 0 {
		return true
	}
	taken := func(n string) bool {
		return slices.ContainsFunc(ls, func(m listener) bool { return m.Name != l.Name && m.Port == l.Port && m.Hostname == n })
	}
	for _, h := range hosts {
		var n string
		switch {
		case gatewayapi.HostnameMatches(l.Hostname, h):
			n = h
		case strings.HasPrefix(h, "*") && gatewayapi.HostnameMatches(h, l.Hostname):
			n = l.Hostname
		default:
			continue
		}
		if !taken(n) {
			return true
		}
	}
	return false
}

// checkBackend reports a backend of route a in another namespace that no
// ReferenceGrant there lets HTTPRoutes of a's namespace reach: Envoy
// Gateway refuses the reference (RefNotPermitted) and answers with 500.
func (s *sim) checkBackend(a *applied, b objectRef) {
	group, kind := or(b.Group, ""), or(b.Kind, "Service")
	if b.Namespace == "" || b.Namespace == a.ns || s.granted(a, group, kind, b.Namespace, b.Name) {
		return
	}
	s.finding(s.owner(a), a.File, "HTTPRoute %s: backendRef %s %s/%s: no ReferenceGrant in namespace %s lets HTTPRoutes of namespace %s reach it (RefNotPermitted): Envoy Gateway answers its requests with 500",
		a.key, kind, b.Namespace, b.Name, b.Namespace, a.ns)
}

// granted reports whether a ReferenceGrant that a build produces in
// namespace ns lets objects of a's kind and namespace refer to the object
// of group, kind and name there (a grant without a name covers them all).
func (s *sim) granted(a *applied, group, kind, ns, name string) bool {
	for _, g := range s.objects {
		if g.Group() != gatewayGroup || g.Kind != "ReferenceGrant" || g.ns != ns {
			continue
		}
		var spec referenceGrantSpec
		if decode(g.Body, &spec) != nil {
			continue
		}
		from := slices.ContainsFunc(spec.From, func(f objectRef) bool {
			return or(f.Group, "") == a.Group() && or(f.Kind, "") == a.Kind && f.Namespace == a.ns
		})
		to := slices.ContainsFunc(spec.To, func(t objectRef) bool {
			return or(t.Group, "") == group && or(t.Kind, "") == kind && (t.Name == "" || t.Name == name)
		})
		if from && to {
			return true
		}
	}
	return false
}

// checkSecurityPolicy reports a SecurityPolicy whose target, a route or
// Gateway in its namespace, no build produces: it guards nothing, and the
// target, if it comes some other way, is served without it. Its basic
// authentication's Secret must be there too, or be one the config names
// as existing, with a ReferenceGrant when it is in another namespace:
// without it Envoy Gateway refuses the policy, and the route answers every
// request with 500.
func (s *sim) checkSecurityPolicy(a *applied, index map[objKey][]*applied) {
	var spec securityPolicySpec
	if err := decode(a.Body, &spec); err != nil {
		s.finding(s.owner(a), a.File, "SecurityPolicy %s: %v", a.key, err)
		return
	}
	targets := spec.TargetRefs
	if spec.TargetRef != nil {
		targets = append(targets, *spec.TargetRef)
	}
	for _, t := range targets {
		k := objKey{or(t.Group, ""), or(t.Kind, ""), a.ns, t.Name}
		if k.group == gatewayGroup && len(index[k]) == 0 {
			s.finding(s.owner(a), a.File, "SecurityPolicy %s: target %s: no build produces it in namespace %s%s: the policy guards nothing", a.key, k, a.ns, s.elsewhere(k))
		}
	}
	if spec.BasicAuth == nil {
		return
	}
	u := spec.BasicAuth.Users
	ns := cmpOr(u.Namespace, a.ns)
	k := objKey{"", "Secret", ns, u.Name}
	switch {
	case len(index[k]) == 0 && !slices.Contains(s.c.ExistingSecrets, types.NamespacedName{Namespace: ns, Name: u.Name}):
		s.finding(s.owner(a), a.File, "SecurityPolicy %s: basicAuth users Secret %s/%s: no build produces it, and the config names no such existing Secret: Envoy Gateway refuses the policy and answers the route's requests with 500%s",
			a.key, ns, u.Name, s.elsewhere(k))
	case ns != a.ns && !s.granted(a, "", "Secret", ns, u.Name):
		s.finding(s.owner(a), a.File, "SecurityPolicy %s: basicAuth users Secret %s/%s: no ReferenceGrant in namespace %s lets SecurityPolicies of namespace %s read it: Envoy Gateway refuses the policy and answers the route's requests with 500",
			a.key, ns, u.Name, ns, a.ns)
	}
}

// cert-manager's annotations asking it to issue a Gateway's listener
// certificates (its gateway-shim), and the API group of its issuers.
const (
	certManagerGroup        = "cert-manager.io"
	clusterIssuerAnnotation = "cert-manager.io/cluster-issuer"
	issuerAnnotation        = "cert-manager.io/issuer"
)

// checkGatewayTLS reports a terminating listener of Gateway a whose
// certificate Secret nothing provides: no build produces the Secret, nor a
// cert-manager Certificate writing it; cert-manager's gateway-shim does not
// issue it (the Gateway names no issuer a build produces, or the listener
// has no hostname, or the Secret is in another namespace, which the shim
// does not write); and the config does not name it as existing. Envoy
// Gateway then serves no HTTPS on the listener (InvalidCertificateRef); a
// Secret in another namespace needs a ReferenceGrant there too. An issuer
// the annotation names that no build produces is a finding of its own.
func (s *sim) checkGatewayTLS(a *applied, index map[objKey][]*applied, cms []certManager) {
	var gw gatewaySpec
	if err := decode(a.Body, &gw); err != nil {
		s.finding(s.owner(a), a.File, "Gateway %s: %v", a.key, err)
		return
	}
	shim := false // cert-manager issues the listeners' certificates
	for _, k := range []objKey{
		{certManagerGroup, "ClusterIssuer", "", fluxbuild.String(a.Body, "metadata", "annotations", clusterIssuerAnnotation)},
		{certManagerGroup, "Issuer", a.ns, fluxbuild.String(a.Body, "metadata", "annotations", issuerAnnotation)},
	} {
		if k.name == "" {
			continue
		}
		if !s.built(k) && !(k.kind == "ClusterIssuer" && slices.Contains(s.c.ExistingClusterIssuers, k.name)) {
			s.finding(s.owner(a), a.File, "Gateway %s: its cert-manager annotation names %s, which no build produces: cert-manager issues none of its listeners' certificates", a.key, k)
			continue
		}
		if off := shimOff(cms); off != nil {
			s.finding(s.owner(a), a.File, "Gateway %s: its cert-manager annotation asks cert-manager's gateway-shim for its listeners' certificates, but the values of %s turn cert-manager's Gateway API support off (config.enableGatewayAPI): cert-manager issues none of them",
				a.key, "HelmRelease "+strings.Join(off, ", HelmRelease "))
			continue
		}
		shim = true
	}
	for _, l := range gw.Listeners {
		if l.TLS == nil || l.Protocol != "HTTPS" && (l.Protocol != "TLS" || l.TLS.Mode == "Passthrough") {
			continue
		}
		for _, ref := range l.TLS.CertificateRefs {
			if or(ref.Group, "") != "" || or(ref.Kind, "Secret") != "Secret" {
				continue
			}
			ns := cmpOr(ref.Namespace, a.ns)
			if ns != a.ns && !s.granted(a, "", "Secret", ns, ref.Name) {
				s.finding(s.owner(a), a.File, "Gateway %s: listener %s: certificate Secret %s/%s: no ReferenceGrant in namespace %s lets Gateways of namespace %s read it (RefNotPermitted): Envoy Gateway serves no HTTPS there", a.key, l.Name, ns, ref.Name, ns, a.ns)
				continue
			}
			k := objKey{"", "Secret", ns, ref.Name}
			switch {
			case len(index[k]) > 0, shim && l.Hostname != "" && ns == a.ns, s.certificateWrites(ns, ref.Name),
				slices.Contains(s.c.ExistingSecrets, types.NamespacedName{Namespace: ns, Name: ref.Name}):
				continue
			}
			s.finding(s.owner(a), a.File, "Gateway %s: listener %s: certificate Secret %s/%s: no build produces it or a Certificate writing it, cert-manager's gateway-shim does not issue it, and the config names no such existing Secret: Envoy Gateway serves no HTTPS there", a.key, l.Name, ns, ref.Name)
		}
	}
}

// built reports whether a build produces the object of key k; a
// cluster-scoped kind is found whatever namespace a build gave it, which
// the API server ignores.
func (s *sim) built(k objKey) bool {
	return slices.ContainsFunc(s.objects, func(o *applied) bool {
		return o.Group() == k.group && o.Kind == k.kind && o.Name == k.name && (k.ns == "" || o.ns == k.ns)
	})
}

// certificateWrites reports whether a cert-manager Certificate a build
// produces writes its certificate into Secret ns/name.
func (s *sim) certificateWrites(ns, name string) bool {
	return slices.ContainsFunc(s.objects, func(o *applied) bool {
		if o.Group() != certManagerGroup || o.Kind != "Certificate" || o.ns != ns {
			return false
		}
		return fluxbuild.String(o.Body, "spec", "secretName") == name
	})
}
