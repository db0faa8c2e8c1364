package fluxsim

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// edge is a unit with a Gateway in namespace edge and, in namespace app, a
// route to it guarded by a SecurityPolicy: every piece attaches as the
// Gateway API and Envoy Gateway say. The cases of TestGatewayAPI edit it.
var edge = map[string]string{
	"kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - namespace.yaml
  - issuer.yaml
  - gateway.yaml
  - route.yaml
  - policy.yaml
  - logins.yaml
`,
	"namespace.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: edge
`,
	"issuer.yaml": `apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata:
  name: ca
spec:
  ca:
    secretName: edge-ca
`,
	"gateway.yaml": `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: edge
  annotations:
    cert-manager.io/cluster-issuer: ca
spec:
  gatewayClassName: envoy
  listeners:
    - name: http
      protocol: HTTP
      port: 80
      hostname: "*.a.example"
      allowedRoutes:
        namespaces:
          from: All
    - name: https
      protocol: HTTPS
      port: 443
      hostname: "*.a.example"
      tls:
        certificateRefs: [{name: a-tls}]
      allowedRoutes:
        namespaces:
          from: All
`,
	"route.yaml": `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  namespace: app
spec:
  parentRefs:
    - name: gw
      namespace: edge
      port: 443
  hostnames:
    - web.a.example
  rules:
    - backendRefs:
        - name: web
          port: 80
`,
	"policy.yaml": `apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata:
  name: web-login
  namespace: app
spec:
  targetRefs:
    - group: gateway.networking.k8s.io
      kind: HTTPRoute
      name: web
  basicAuth:
    users:
      name: web-logins
`,
	"logins.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: web-logins
  namespace: app
stringData:
  .htpasswd: "web:{SHA}qX4tq0yvQ0XSAU8Me62Uzf3gy4c="
`,
}

// TestGatewayAPI: an HTTPRoute its Gateway would not accept, a backend in
// another namespace without a ReferenceGrant, a SecurityPolicy without its
// target or its Secret, and an HTTPS listener without its certificate are
// findings; a Gateway no build produces is info.
func TestGatewayAPI(t *testing.T) {
	base := baseRepo(t)
	const route, gateway = "clusters/dev/edge/route.yaml", "clusters/dev/edge/gateway.yaml"
	const listeners = "its listeners: http HTTP on 80 for *.a.example, https HTTPS on 443 for *.a.example"
	const noCertificate = "dev: edge: " + gateway + ": Gateway edge/gw: listener https: certificate Secret edge/a-tls: no build produces it or a Certificate writing it, cert-manager's gateway-shim does not issue it, and the config names no such existing Secret: Envoy Gateway serves no HTTPS there"
	// elsewhere moves the https listener's certificate to namespace app,
	// with a ReferenceGrant there for the Secret granted, if any.
	elsewhere := func(t *testing.T, tree fluxbuild.Tree, granted string) {
		replace(t, tree, gateway, "certificateRefs: [{name: a-tls}]", "certificateRefs: [{name: a-tls, namespace: app}]")
		if granted != "" {
			replace(t, tree, gateway, "", "apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata:\n  name: edge-certificates\n  namespace: app\nspec:\n  from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: edge}]\n  to: [{group: \"\", kind: Secret, name: "+granted+"}]\n---\n")
		}
	}
	// refused is the finding of a route the Gateway does not accept, and why.
	refused := func(why, listeners string) []string {
		return []string{"dev: edge: " + route + ": HTTPRoute app/web: parentRefs[0] Gateway edge/gw does not accept the route (" + why + "; " + listeners + "): Envoy Gateway serves nothing for it there"}
	}
	// namespaces sets which namespaces the https listener takes routes
	// from: those with matchLabels, or its own ("", the default).
	namespaces := func(t *testing.T, tree fluxbuild.Tree, matchLabels string) {
		allowed := ""
		if matchLabels != "" {
			allowed = "      allowedRoutes:\n        namespaces:\n          from: Selector\n          selector:\n            matchLabels: " + matchLabels + "\n"
		}
		replace(t, tree, gateway, "a-tls}]\n      allowedRoutes:\n        namespaces:\n          from: All\n", "a-tls}]\n"+allowed)
	}
	for _, tc := range []struct {
		name     string
		edit     func(t *testing.T, tree fluxbuild.Tree)
		existing []types.NamespacedName
		want     []string
		info     string
	}{{
		name: "accepted",
	}, {
		name: "a route for every name, on every listener",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "      port: 443\n  hostnames:\n    - web.a.example\n", "")
		},
	}, {
		name: "wildcard route names under the listener's",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "- web.a.example", "- \"*.x.a.example\"\n    - \"*.a.example\"")
		},
	}, {
		name: "no listener on the port",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "port: 443", "port: 8443")
		},
		want: refused("NoMatchingParent: no listener has port 8443", listeners),
	}, {
		name: "no listener of the name",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "port: 443", "sectionName: http\n      port: 443")
		},
		want: refused("NoMatchingParent: no listener has name http and port 443", listeners),
	}, {
		name: "routes of the Gateway's namespace alone (the default)",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			namespaces(t, tree, "")
		},
		want: refused("NotAllowedByListeners: no listener with port 443 takes HTTPRoutes from namespace app", listeners),
	}, {
		name: "namespaces by a label no Namespace has",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			namespaces(t, tree, `{edge-routes: "true"}`)
		},
		want: refused("NotAllowedByListeners: no listener with port 443 takes HTTPRoutes from namespace app", listeners),
	}, {
		name: "namespaces by a label the Namespace has",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			namespaces(t, tree, `{edge-routes: "true"}`)
			replace(t, tree, "clusters/dev/app/namespace.yaml", "  name: app\n", "  name: app\n  labels:\n    edge-routes: \"true\"\n")
		},
	}, {
		name: "namespaces by the name label the API server sets",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			namespaces(t, tree, "{kubernetes.io/metadata.name: app}")
		},
	}, {
		name: "a listener for other kinds",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "a-tls}]\n      allowedRoutes:\n", "a-tls}]\n      allowedRoutes:\n        kinds: [{kind: GRPCRoute}]\n")
		},
		want: refused("NotAllowedByListeners: no listener with port 443 takes HTTPRoutes from namespace app", listeners),
	}, {
		name: "a listener of a protocol without HTTPRoutes",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "protocol: HTTPS", "protocol: TLS")
		},
		want: refused("NotAllowedByListeners: no listener with port 443 takes HTTPRoutes from namespace app", "its listeners: http HTTP on 80 for *.a.example, https TLS on 443 for *.a.example"),
	}, {
		name: "a name no listener matches",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "- web.a.example", "- web.b.example\n    - a.example")
		},
		want: refused("NoMatchingListenerHostname: no listener with port 443 matches web.b.example, a.example", listeners),
	}, {
		// Envoy Gateway gives a name to the listener that has it as its own.
		name: "a name another listener on the port has as its own",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "  listeners:\n", "  listeners:\n    - name: web\n      protocol: HTTPS\n      port: 443\n      hostname: web.a.example\n      tls:\n        certificateRefs: [{name: web-tls}]\n")
		},
		want: []string{"dev: edge: " + route + ": HTTPRoute app/web: parentRefs[0] Gateway edge/gw does not accept the route (NoMatchingListenerHostname: no listener with port 443 matches web.a.example; its listeners: web HTTPS on 443 for web.a.example, " + strings.TrimPrefix(listeners, "its listeners: ") + "): Envoy Gateway serves nothing for it there"},
	}, {
		name: "a listener's certificate nothing provides",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "  annotations:\n    cert-manager.io/cluster-issuer: ca\n", "")
		},
		want: []string{noCertificate},
	}, {
		name: "a listener's certificate a Certificate writes",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "  annotations:\n    cert-manager.io/cluster-issuer: ca\n", "")
			replace(t, tree, gateway, "", "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: a\n  namespace: edge\nspec:\n  secretName: a-tls\n  dnsNames: [\"*.a.example\"]\n  issuerRef: {kind: ClusterIssuer, name: ca}\n---\n")
		},
	}, {
		name: "a listener's certificate in an existing Secret",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "  annotations:\n    cert-manager.io/cluster-issuer: ca\n", "")
		},
		existing: []types.NamespacedName{{Namespace: "edge", Name: "a-tls"}},
	}, {
		// cert-manager's gateway-shim issues only for a listener's hostname.
		name: "a listener without a hostname",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "      port: 443\n      hostname: \"*.a.example\"\n", "      port: 443\n")
		},
		want: []string{noCertificate},
	}, {
		name: "a certificate in another namespace",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			elsewhere(t, tree, "")
		},
		existing: []types.NamespacedName{{Namespace: "app", Name: "a-tls"}},
		want:     []string{"dev: edge: " + gateway + ": Gateway edge/gw: listener https: certificate Secret app/a-tls: no ReferenceGrant in namespace app lets Gateways of namespace edge read it (RefNotPermitted): Envoy Gateway serves no HTTPS there"},
	}, {
		name: "a certificate in another namespace with a ReferenceGrant",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			elsewhere(t, tree, "a-tls")
		},
		existing: []types.NamespacedName{{Namespace: "app", Name: "a-tls"}},
	}, {
		name: "a certificate in another namespace, granted another Secret",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			elsewhere(t, tree, "b-tls")
		},
		existing: []types.NamespacedName{{Namespace: "app", Name: "a-tls"}},
		want:     []string{"dev: edge: " + gateway + ": Gateway edge/gw: listener https: certificate Secret app/a-tls: no ReferenceGrant in namespace app lets Gateways of namespace edge read it (RefNotPermitted): Envoy Gateway serves no HTTPS there"},
	}, {
		name: "an issuer no build produces",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, gateway, "cluster-issuer: ca", "cluster-issuer: letsencrypt")
		},
		want: []string{
			"dev: edge: " + gateway + ": Gateway edge/gw: its cert-manager annotation names ClusterIssuer letsencrypt, which no build produces: cert-manager issues none of its listeners' certificates",
			noCertificate,
		},
	}, {
		name: "a Gateway no build produces",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "name: gw\n", "name: gw2\n")
		},
		info: "dev: edge: " + route + ": HTTPRoute app/web: parentRefs[0] Gateway edge/gw2: no build produces the Gateway; whether it accepts the route is not checked",
	}, {
		name: "a backend in another namespace",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "- name: web\n", "- name: web\n          namespace: edge\n")
		},
		want: []string{"dev: edge: " + route + ": HTTPRoute app/web: backendRef Service edge/web: no ReferenceGrant in namespace edge lets HTTPRoutes of namespace app reach it (RefNotPermitted): Envoy Gateway answers its requests with 500"},
	}, {
		name: "a backend in another namespace with a ReferenceGrant",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, route, "- name: web\n", "- name: web\n          namespace: edge\n")
			replace(t, tree, route, "", `apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata:
  name: app-routes
  namespace: edge
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: app}]
  to: [{group: "", kind: Service}]
---
`)
		},
	}, {
		name: "a policy whose route nothing applies",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, "clusters/dev/edge/policy.yaml", "name: web\n", "name: wbe\n")
		},
		want: []string{"dev: edge: clusters/dev/edge/policy.yaml: SecurityPolicy app/web-login: target HTTPRoute app/wbe: no build produces it in namespace app: the policy guards nothing"},
	}, {
		name: "a policy without its logins",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, "clusters/dev/edge/kustomization.yaml", "  - logins.yaml\n", "")
		},
		want: []string{"dev: edge: clusters/dev/edge/policy.yaml: SecurityPolicy app/web-login: basicAuth users Secret app/web-logins: no build produces it, and the config names no such existing Secret: Envoy Gateway refuses the policy and answers the route's requests with 500"},
	}, {
		name: "a policy whose logins are in another namespace",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, "clusters/dev/edge/policy.yaml", "      name: web-logins\n", "      name: web-logins\n      namespace: edge\n")
			replace(t, tree, "clusters/dev/edge/logins.yaml", "namespace: app", "namespace: edge")
		},
		want: []string{"dev: edge: clusters/dev/edge/policy.yaml: SecurityPolicy app/web-login: basicAuth users Secret edge/web-logins: no ReferenceGrant in namespace edge lets SecurityPolicies of namespace app read it: Envoy Gateway refuses the policy and answers the route's requests with 500"},
	}, {
		name: "a policy whose logins exist outside the repository",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, "clusters/dev/edge/kustomization.yaml", "  - logins.yaml\n", "")
		},
		existing: []types.NamespacedName{{Namespace: "app", Name: "web-logins"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tree := clusterTree(t)
			for name, body := range edge {
				tree["clusters/dev/edge/"+name] = []byte(body)
			}
			addUnit(tree, "edge", "  path: ./clusters/dev/edge\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: app-override\n")
			if tc.edit != nil {
				tc.edit(t, tree)
			}
			r := simulateCluster(t, base, tree, Cluster{ExistingSecrets: tc.existing})
			wantReport(t, r, tc.want, tc.info)
		})
	}
}

// wantReport holds a simulation's findings to want, in order, and its info
// lines to include info when it is not "".
func wantReport(t *testing.T, r *Report, want []string, info string) {
	t.Helper()
	if got := lines(r.Findings); !slices.Equal(got, append([]string{}, want...)) {
		t.Errorf("findings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if info != "" && !slices.Contains(lines(r.Info), info) {
		t.Errorf("info:\n%s\nwant among them\n%s", strings.Join(lines(r.Info), "\n"), info)
	}
}
