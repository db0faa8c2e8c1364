package config

import (
	"crypto/x509"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCertificateCovers holds certificateCovers to crypto/x509's
// VerifyHostname, a TLS client's check, over random certificate names and
// hostnames drawn from a few labels.
func TestCertificateCovers(t *testing.T) {
	labels := []string{"a", "b", "example", "com"}
	r := rand.New(rand.NewPCG(1, 2))
	name := func(wildcard bool) string {
		n := 1 + r.IntN(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = labels[r.IntN(len(labels))]
		}
		if wildcard {
			parts = append([]string{"*"}, parts...)
		}
		return strings.Join(parts, ".")
	}
	disagree := 0
	for range 20000 {
		n, host := name(r.IntN(2) == 0), name(false)
		want := (&x509.Certificate{DNSNames: []string{n}}).VerifyHostname(host) == nil
		if got := certificateCovers(n, host); got != want {
			disagree++
			if disagree <= 10 {
				t.Errorf("certificate for %q, host %q: covers %v, x509 says %v", n, host, got, want)
			}
		}
	}
}

// TestMoreSpecific: of two listener hostnames matching one name, Envoy
// Gateway serves the certificate of the most specific.
func TestMoreSpecific(t *testing.T) {
	order := []string{"", "*.com", "*.example.com", "a.example.com"} // least to most specific
	for i, a := range order {
		for j, b := range order {
			if got, want := moreSpecific(a, b), i > j; got != want {
				t.Errorf("moreSpecific(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestCertificateNames: cert-manager issues one certificate per Secret,
// for the hostnames of every HTTPS listener that names it.
func TestCertificateNames(t *testing.T) {
	g := &Gateway{Listeners: []GatewayListener{
		{Name: "http", Hostname: "*.a.example", Protocol: ListenerHTTP, Port: 80},
		{Name: "a", Hostname: "*.a.example", Protocol: ListenerHTTPS, Port: 443, TLSSecretName: "shared"},
		{Name: "b", Hostname: "b.example", Protocol: ListenerHTTPS, Port: 443, TLSSecretName: "shared"},
		{Name: "b2", Hostname: "b.example", Protocol: ListenerHTTPS, Port: 8443, TLSSecretName: "shared"},
		{Name: "c", Hostname: "c.example", Protocol: ListenerHTTPS, Port: 443, TLSSecretName: "own"},
	}}
	if got := strings.Join(g.certificateNames("shared"), " "); got != "*.a.example b.example" {
		t.Errorf("names of Secret shared: %s", got)
	}
}

// TestHTTPSRedirect: plain HTTP is redirected for each login page's name
// that an HTTP listener matches, on those listeners' ports, each once and
// sorted; with no such listener there is no redirect at all, since a route
// without hostnames would redirect every name.
func TestHTTPSRedirect(t *testing.T) {
	http := func(host string, port int) GatewayListener {
		return GatewayListener{Name: "h", Hostname: host, Port: port, Protocol: ListenerHTTP}
	}
	https := GatewayListener{Name: "s", Hostname: "*.a.example", Port: 443, Protocol: ListenerHTTPS, TLSSecretName: "t"}
	for _, c := range []struct {
		name      string
		listeners []GatewayListener
		hosts     []string
		want      string
	}{
		{"one port", []GatewayListener{http("*.a.example", 80), https}, []string{"g.a.example", "", "b.a.example", "g.a.example"}, "&{[80] [b.a.example g.a.example]}"},
		{"names another listener matches", []GatewayListener{http("*.b.example", 80), http("g.a.example", 8080), https}, []string{"g.a.example", "x.a.example"}, "&{[8080] [g.a.example]}"},
		{"every name", []GatewayListener{http("", 8080), http("", 80)}, []string{"x.example"}, "&{[80 8080] [x.example]}"},
		{"HTTPS alone", []GatewayListener{https}, []string{"g.a.example"}, "<nil>"},
		{"no HTTP listener matches", []GatewayListener{http("*.b.example", 80), https}, []string{"g.a.example"}, "<nil>"},
		{"no login page", []GatewayListener{http("", 80)}, []string{"", ""}, "<nil>"},
	} {
		got := httpsRedirect(&Gateway{Listeners: c.listeners}, c.hosts)
		if s := fmt.Sprint(got); s != c.want {
			t.Errorf("%s: %s, want %s", c.name, s, c.want)
		}
	}
}
