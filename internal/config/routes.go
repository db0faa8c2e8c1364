package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/gatewayapi"
)

// published is a service published on its hostname through the cluster
// Gateway: who it is, for messages, and whether it is given the address
// https://<hostname><urlPath> (Grafana's root_url, an OIDC callback).
type published struct {
	svc     string
	https   bool
	urlPath string
}

// routeHostname checks the hostname at key of the mapping at path, which
// a service is published at through the cluster Gateway with an HTTPRoute.
// It holds the hostname to what the Gateway's consumers do with it:
//   - Envoy Gateway attaches a route only to listeners whose hostname
//     intersects the route's (Gateway API; otherwise the route is not
//     Accepted, NoMatchingListenerHostname), so the name must match one;
//   - when the service is given an https address on that name, or asks
//     for a login there (the catalog's LoginHostnames: its route takes HTTPS alone), a
//     listener on port 443 must serve the name over HTTPS;
//   - that listener's certificate, when cert-manager issues it (the
//     Gateway has an issuer), names the hostnames of the listeners that
//     share its Secret, and a TLS client accepts it only if one of those
//     names covers the hostname (a wildcard covers one label).
//
// Checks only where the Gateway is enabled: without it no route is
// rendered, and the name is the user's to publish. The path is made only
// for a report: this runs for every config loaded.
func (v *Validator) routeHostname(path, key, host string, pub published, c *Config) {
	g := c.OpenCenter.Services.Gateway
	if host == "" || g == nil || !g.Enabled || !MatchFormat("dns-subdomain", host) {
		return
	}
	var served *GatewayListener // the HTTPS listener on 443 that serves host
	matched := false
	for i := range g.Listeners {
		l := &g.Listeners[i]
		if !gatewayapi.HostnameMatches(l.Hostname, host) {
			continue
		}
		matched = true
		if l.Protocol == ListenerHTTPS && l.Port == 443 && (served == nil || moreSpecific(l.Hostname, served.Hostname)) {
			served = l
		}
	}
	p := func() string { return path + "." + key }
	switch {
	case !matched:
		v.Errorf(p(), "%q matches no listener of the cluster Gateway (%s): the Gateway would not accept the HTTPRoute for it (NoMatchingListenerHostname); use a name the listeners serve, or add a listener for it to opencenter.services.gateway.listeners", host, g.describeListeners())
	case served == nil && (pub.https || slices.Contains(registered().LoginHostnames(c), host)):
		fix := "add an HTTPS listener on port 443 for it to opencenter.services.gateway.listeners"
		if g.derivedListeners {
			fix = "set opencenter.cluster.base_domain and give the gateway a certificate (issuer or tls_secret_name) for the default HTTPS listener, or list the listeners, with an HTTPS one on port 443 for it, in opencenter.services.gateway.listeners"
		}
		why := fmt.Sprintf("%s is given the address https://%s%s", pub.svc, host, pub.urlPath)
		if !pub.https {
			why = pub.svc + " asks for a login there, so its route takes HTTPS alone"
		}
		v.Errorf(p(), "%q is served by no HTTPS listener on port 443 of the cluster Gateway (%s), but %s: %s", host, g.describeListeners(), why, fix)
	case served != nil && g.Issuer != "":
		names := g.certificateNames(served.TLSSecretName)
		for _, n := range names {
			if certificateCovers(n, host) {
				return
			}
		}
		v.Errorf(p(), "%q is served by the HTTPS listener %s, whose certificate cert-manager issues for %s: no name there covers %q (a wildcard covers exactly one label), so clients would refuse the connection; choose a name one label under the listener's wildcard, or add an HTTPS listener for %q to opencenter.services.gateway.listeners", host, served.Name, joinAnd(names), host, host)
	}
}

// moreSpecific reports whether listener hostname a is more specific than
// b, both matching one name: an exact name over a wildcard, a longer
// wildcard over a shorter, any name over none. Envoy Gateway chooses the
// most specific listener's certificate for a name (SNI).
func moreSpecific(a, b string) bool {
	wa, wb := strings.HasPrefix(a, "*"), strings.HasPrefix(b, "*")
	switch {
	case b == "":
		return a != ""
	case a == "" || wa != wb:
		return !wa && a != ""
	}
	return len(a) > len(b)
}

// certificateCovers reports whether a certificate for the DNS name n is
// valid for host: the names are equal, or n is *.d and host is one label
// followed by .d (a TLS wildcard matches exactly one label).
func certificateCovers(n, host string) bool {
	if suffix, ok := strings.CutPrefix(n, "*."); ok {
		label, rest, found := strings.Cut(host, ".")
		return found && label != "" && rest == suffix
	}
	return n == host
}

// certificateNames are the DNS names of the certificate cert-manager
// issues into Secret secret for the Gateway: the hostnames of every HTTPS
// listener whose certificate is that Secret, in listener order, once each.
func (s *Gateway) certificateNames(secret string) []string {
	var names []string
	for _, l := range s.Listeners {
		if l.Protocol == ListenerHTTPS && l.TLSSecretName == secret && l.Hostname != "" && !slices.Contains(names, l.Hostname) {
			names = append(names, l.Hostname)
		}
	}
	return names
}

// describeListeners lists the Gateway's listeners for a message, such as
// "listeners: HTTP on port 80 for *.dev.example.com, HTTPS on port 443 for
// *.dev.example.com", and says when they are the defaults.
func (s *Gateway) describeListeners() string {
	ls := make([]string, 0, len(s.Listeners))
	for _, l := range s.Listeners {
		host := l.Hostname
		if host == "" {
			host = "any name"
		}
		ls = append(ls, fmt.Sprintf("%s on port %d for %s", l.Protocol, l.Port, host))
	}
	d := "listeners: " + strings.Join(ls, ", ")
	if s.derivedListeners {
		d = "the default " + d
	}
	return d
}
