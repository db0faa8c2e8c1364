package config

import (
	"slices"

	"github.com/opencenter-dev/opencenter/internal/gatewayapi"
)

// applyDerivedDefaults fills the defaults that depend on other fields. It
// runs after the catalog's ApplyDefaults has applied the `default` struct tags:
//   - cert-manager's issuer_name, after its issuer;
//   - the issuer of the gateway and of harbor's Certificate: the cluster's
//     ClusterIssuer, when cert-manager has one;
//   - the gateway's listeners, from cluster.base_domain;
//   - the gateway's redirect of plain HTTP to the login pages it publishes.
func applyDerivedDefaults(c *Config) {
	s := &c.OpenCenter.Services
	var issuer string // the cluster's ClusterIssuer, "" for none
	if cm := s.CertManager; cm != nil {
		if cm.IssuerName == "" {
			cm.IssuerName = defaultIssuerNames[cm.Issuer]
		}
		if cm.Enabled && cm.Issuer != CertIssuerNone {
			issuer = cm.IssuerName
		}
	}
	if h := s.Harbor; h != nil && h.Issuer == "" {
		h.Issuer = issuer
	}
	if g := s.Gateway; g != nil {
		if g.Issuer == "" && g.TLSSecretName == "" {
			g.Issuer = issuer
		}
		if len(g.Listeners) == 0 {
			g.Listeners, g.derivedListeners = defaultListeners(g, c.OpenCenter.Cluster.BaseDomain), true
		}
		g.httpsRedirect = httpsRedirect(g, loginHostnames(s))
	}
}

// loginHostnames are the names of the enabled services whose pages ask
// for a login and that the cluster Gateway publishes (not those installed
// outside opencenter, which publishes nothing of them): Grafana,
// Alertmanager (its logins are the Gateway's own), Headlamp (a token or
// OIDC), the Weave GitOps dashboard, Harbor (its portal and registry),
// the Longhorn UI (its logins are the Gateway's own), and Keycloak where its address is https on its hostname.
func loginHostnames(s *Services) []string {
	var names []string
	if k := s.KubePrometheusStack; k != nil && k.Enabled && !k.External() {
		names = append(names, k.GrafanaHostname, k.AlertmanagerHostname)
	}
	if h := s.Headlamp; h != nil && h.Enabled && !h.External() {
		names = append(names, h.Hostname)
	}
	if w := s.WeaveGitOps; w != nil && w.Enabled && !w.External() {
		names = append(names, w.Hostname)
	}
	if h := s.Harbor; h != nil && h.Enabled && !h.External() {
		names = append(names, h.Hostname)
	}
	if l := s.Longhorn; l != nil && l.Enabled && !l.External() {
		names = append(names, l.Hostname)
	}
	if k := s.Keycloak; k != nil && k.Enabled && !k.External() && k.GatewayRoute && k.HTTPSOnly() {
		names = append(names, k.Hostname)
	}
	return names
}

// httpsRedirect is the redirect to HTTPS of plain HTTP to names: the
// names that an HTTP listener of g matches, once each and sorted, and
// those listeners' ports. It is nil when no HTTP listener matches a name,
// never a route for every name.
func httpsRedirect(g *Gateway, names []string) *HTTPSRedirect {
	r := &HTTPSRedirect{}
	for _, host := range names {
		for _, l := range g.Listeners {
			if host == "" || l.Protocol != ListenerHTTP || !gatewayapi.HostnameMatches(l.Hostname, host) {
				continue
			}
			if !slices.Contains(r.Hostnames, host) {
				r.Hostnames = append(r.Hostnames, host)
			}
			if !slices.Contains(r.Ports, l.Port) {
				r.Ports = append(r.Ports, l.Port)
			}
		}
	}
	if len(r.Hostnames) == 0 {
		return nil
	}
	slices.Sort(r.Hostnames)
	slices.Sort(r.Ports)
	return r
}

// defaultIssuerNames name the ClusterIssuer of each kind of issuer.
var defaultIssuerNames = map[CertIssuer]string{
	CertIssuerACME:       "letsencrypt",
	CertIssuerSelfSigned: "selfsigned",
	CertIssuerCA:         "ca",
}

// defaultListeners are the listeners of a gateway that lists none: http for
// *.<domain> (every name without a domain) and, when the gateway can get its
// certificate, https for the same wildcard.
func defaultListeners(g *Gateway, domain string) []GatewayListener {
	if domain == "" {
		return []GatewayListener{{Name: "http", Port: 80, Protocol: ListenerHTTP}}
	}
	host := "*." + domain
	ls := []GatewayListener{{Name: "http", Hostname: host, Port: 80, Protocol: ListenerHTTP}}
	if g.Issuer != "" || g.TLSSecretName != "" {
		secret := g.TLSSecretName
		if secret == "" {
			secret = g.Name + "-tls"
		}
		ls = append(ls, GatewayListener{Name: "https", Hostname: host, Port: 443, Protocol: ListenerHTTPS, TLSSecretName: secret})
	}
	return ls
}
