package fluxsim

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// certs is a unit installing cert-manager's chart with its Gateway API
// support on, the base's way (a values Secret). TestCertManagerGatewayAPI
// edits it.
var certs = map[string]string{
	"kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - namespace.yaml
  - repository.yaml
  - values.yaml
  - release.yaml
`,
	"namespace.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: cert-manager
`,
	"repository.yaml": `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: jetstack
  namespace: cert-manager
spec:
  url: https://charts.jetstack.io
`,
	"values.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: cert-manager-values
  namespace: cert-manager
stringData:
  values.yaml: |
    crds:
      enabled: true
    config:
      apiVersion: controller.config.cert-manager.io/v1alpha1
      kind: ControllerConfiguration
      enableGatewayAPI: true
`,
	"release.yaml": `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: cert-manager
  namespace: cert-manager
spec:
  interval: 5m
  chart:
    spec:
      chart: cert-manager
      version: v1.18.2
      sourceRef:
        kind: HelmRepository
        name: jetstack
  valuesFrom:
    - kind: Secret
      name: cert-manager-values
      valuesKey: values.yaml
`,
}

// TestCertManagerGatewayAPI: cert-manager's Gateway API support, as its
// HelmRelease's values merge, is what issues the certificates a Gateway's
// annotation asks for, and it stops cert-manager at start while the
// Gateway API CRDs are not there. Support off under an annotated Gateway,
// and support on in a unit that does not follow the CRDs' installer, are
// findings; on with no installer at all is info.
func TestCertManagerGatewayAPI(t *testing.T) {
	base := baseRepo(t)
	const release, gateway = "clusters/dev/certs/release.yaml", "clusters/dev/edge/gateway.yaml"
	const noCertificate = "dev: edge: " + gateway + ": Gateway edge/gw: listener https: certificate Secret edge/a-tls: no build produces it or a Certificate writing it, cert-manager's gateway-shim does not issue it, and the config names no such existing Secret: Envoy Gateway serves no HTTPS there"
	const shimOff = "dev: edge: " + gateway + ": Gateway edge/gw: its cert-manager annotation asks cert-manager's gateway-shim for its listeners' certificates, but the values of HelmRelease cert-manager/cert-manager turn cert-manager's Gateway API support off (config.enableGatewayAPI): cert-manager issues none of them"
	off := func(t *testing.T, tree fluxbuild.Tree) {
		replace(t, tree, "clusters/dev/certs/values.yaml", "enableGatewayAPI: true", "enableGatewayAPI: false")
	}
	for _, tc := range []struct {
		name      string
		edit      func(t *testing.T, tree fluxbuild.Tree)
		noCRDs    bool // no unit installs the Gateway API CRDs
		unordered bool // cert-manager's unit does not follow their installer
		existing  []types.NamespacedName
		want      []string
		info      string
	}{{
		name: "on, after the Gateway API CRDs",
	}, {
		name:      "on, in no order with the Gateway API CRDs",
		unordered: true,
		want:      []string{"dev: certs: " + release + ": HelmRelease cert-manager/cert-manager: cert-manager's Gateway API support is on (config.enableGatewayAPI), and cert-manager stops at start while the Gateway API CRDs are not there, but gateway-api, which installs them, is not in certs's dependsOn (directly or transitively): cert-manager may crash-loop until helm-controller gives the release up"},
	}, {
		name:   "on, with no unit installing the Gateway API CRDs",
		noCRDs: true,
		info:   "dev: certs: " + release + ": HelmRelease cert-manager/cert-manager: cert-manager's Gateway API support is on (config.enableGatewayAPI), and no Flux unit installs the Gateway API CRDs: cert-manager stops at start unless the cluster has them from elsewhere",
	}, {
		name: "off, under an annotated Gateway",
		edit: off,
		want: []string{shimOff, noCertificate},
	}, {
		name: "off in the values Secret, on in spec.values, which come last",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			off(t, tree)
			replace(t, tree, release, "  valuesFrom:\n", "  values:\n    config:\n      enableGatewayAPI: true\n  valuesFrom:\n")
		},
	}, {
		name: "on in the values Secret, with more of config in spec.values, merged key by key",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, release, "  valuesFrom:\n", "  values:\n    config:\n      logging:\n        format: json\n  valuesFrom:\n")
		},
	}, {
		name: "on in a values Secret, off in a later one",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			replace(t, tree, "clusters/dev/certs/values.yaml", "enableGatewayAPI: true\n", "enableGatewayAPI: true\n  later.yaml: |\n    config:\n      enableGatewayAPI: false\n")
			replace(t, tree, release, "      valuesKey: values.yaml\n", "      valuesKey: values.yaml\n    - kind: Secret\n      name: cert-manager-values\n      valuesKey: later.yaml\n")
		},
		want: []string{shimOff, noCertificate},
	}, {
		name: "values outside the repository: not judged",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			off(t, tree)
			replace(t, tree, release, "      valuesKey: values.yaml\n", "      valuesKey: values.yaml\n    - kind: Secret\n      name: cert-manager-vault\n")
		},
		existing: []types.NamespacedName{{Namespace: "cert-manager", Name: "cert-manager-vault"}},
	}, {
		name: "optional values outside the repository: not judged",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			off(t, tree)
			replace(t, tree, release, "      valuesKey: values.yaml\n", "      valuesKey: values.yaml\n    - kind: Secret\n      name: cert-manager-vault\n      optional: true\n")
		},
		existing: []types.NamespacedName{{Namespace: "cert-manager", Name: "cert-manager-vault"}},
	}, {
		name: "optional values nowhere: skipped, as helm-controller does",
		edit: func(t *testing.T, tree fluxbuild.Tree) {
			off(t, tree)
			replace(t, tree, release, "      valuesKey: values.yaml\n", "      valuesKey: values.yaml\n    - kind: Secret\n      name: cert-manager-vault\n      optional: true\n")
		},
		want: []string{shimOff, noCertificate},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tree := clusterTree(t)
			for name, body := range edge {
				tree["clusters/dev/edge/"+name] = []byte(body)
			}
			for name, body := range certs {
				tree["clusters/dev/certs/"+name] = []byte(body)
			}
			tree["clusters/dev/gateway-api/kustomization.yaml"] = []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - namespace.yaml\n")
			tree["clusters/dev/gateway-api/namespace.yaml"] = []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: envoy-gateway-system\n")
			unit := func(name, deps string) {
				addUnit(tree, name, "  path: ./clusters/dev/"+name+"\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n"+deps)
			}
			providers := map[string][]string{"gateway.networking.k8s.io": {"gateway-api"}}
			gatewayAPI := "    - name: gateway-api\n"
			if tc.noCRDs {
				providers, gatewayAPI = nil, ""
			}
			unit("gateway-api", "    - name: app-override\n")
			unit("edge", "    - name: app-override\n    - name: certs\n"+gatewayAPI)
			if tc.unordered {
				unit("certs", "    - name: app-override\n")
			} else {
				unit("certs", "    - name: app-override\n"+gatewayAPI)
			}
			if tc.edit != nil {
				tc.edit(t, tree)
			}
			r := simulateCluster(t, base, tree, Cluster{Providers: providers, ExistingSecrets: tc.existing})
			wantReport(t, r, tc.want, tc.info)
		})
	}
}
