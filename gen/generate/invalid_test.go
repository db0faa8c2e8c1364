package generate

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// invalidCases are the folders of gen/testdata/invalid: each is a minimal
// valid catalog plus one mistake, and <case>.golden is the exact error.
var invalidCases = []string{
	// Field paths and operators of conditions.
	"field-unknown-key",    // unknown path segment, with did-you-mean
	"field-through-scalar", // a path through a non-object
	"field-names-object",   // a path naming an object, not a leaf
	"field-path-syntax",    // opencenter..x
	"true-on-non-bool",     // true on a string
	"false-on-non-bool",    // false on an *int
	"equals-without-value", // equals needs a value
	"exists-with-value",    // exists takes none
	"unknown-operator",     // equal, with did-you-mean
	"equals-not-in-enum",   // a provider that is not one, with did-you-mean
	"equals-not-an-int",    // equals "three" on an *int
	"equals-on-map",        // equals on a map
	// Units.
	"unknown-layer",           // service, with did-you-mean
	"unit-name-not-file-name", // demo.yaml defines unit demo-unit
	"flux-path-placeholder",   // {overlai} in a flux unit path
	"requires-itself",         // a unit requiring itself
	"health-check-incomplete", // a health check without api_version
	"unknown-service-gate",    // keycloack, with did-you-mean
	"requires-unknown-unit",   // clustr, with did-you-mean
	"standard-without-values", // a standard unit without helm-values/override-values.yaml
	// Against the base index.
	"base-path-missing",                  // cert-manger, with did-you-mean
	"base-health-check-unknown",          // a Deployment the base does not create
	"base-values-secret-unread",          // the HelmRelease reads another override Secret
	"base-target-namespace-moves-source", // the HelmRepository its HelmRelease reads from flux-system
	"base-namespace-mismatch",            // namespace certs, the base's HelmRelease is in cert-manager
	// Overlay files.
	"unowned-template",     // a file under files/ no descriptor lists
	"output-collision",     // x.yaml and x.yaml.tpl
	"missing-overlay-file", // a listed file that does not exist
	"unknown-builtin",      // agregate, with did-you-mean
	// Sources and Flux units.
	"flux-unknown-source",          // with did-you-mean
	"flux-unknown-depends-on",      // with did-you-mean
	"flux-dependency-cycle",        // first -> second -> third -> first
	"flux-unit-name-not-dns",       // Demo_Server
	"source-name-not-dns",          // opencenter_demo
	"source-name-flux-system",      // the name flux bootstrap owns
	"duplicate-flux-unit",          // two descriptors emit sources
	"unknown-repo",                 // bsae
	"unknown-include-source",       // with did-you-mean
	"provides-twice",               // two Flux units install one API group's CRDs
	"needs-unprovided",             // a Flux unit needs an API group no Flux unit provides
	"wants-unprovided",             // a Flux unit wants an API group no Flux unit provides
	"values-from-not-standard",     // values_from on a unit without the standard pattern
	"values-from-secret-and-field", // a values_from entry naming its Secret twice
	"values-from-field-not-a-name", // secret_field naming an email field
	// Charts, Services, logins and examples.
	"crds-replaced-not-standard", // a chart's crds/ that nothing upgrades, on a unit without the standard pattern
	"chart-version-moved",        // the base installs the chart at another version than the facts were read off
	"schema-file-unnamed",        // a file under schemas/ no chart names
	"login-not-a-string",         // a login hostname naming a bool
	"example-path-unknown",       // hostnme, with did-you-mean
	// Templates.
	"template-unknown-field",        // .Service.Hostnme, with did-you-mean
	"template-unknown-data-field",   // .Unti, with did-you-mean
	"template-no-service",           // .Service in a unit without a service
	"template-unknown-function",     // uppr, with did-you-mean
	"template-syntax-error",         // an unclosed action
	"template-quote",                // quote: the escapers quote
	"template-value-in-quotes",      // "https://{{ … }}": the escapers quote
	"template-block-format-missing", // a value in a block scalar without {{/* yaml */}}
	"template-context-differs",      // a value in a YAML value or a comment, by branch
	"template-scalar-split",         // a scalar's text behind an {{if}}
	"template-gcfg-section",         // a value in a gcfg section header that is not the subsection
	"template-flow-collection",      // a value inside [ ]
	"template-format-misplaced",     // {{/* gcfg */}} not after a block indicator
	// Decoding.
	"descriptor-unknown-key", // flux_unit, with did-you-mean
	"descriptor-wrong-type",  // requires: a string
	"wrong-api-version",      // opencenter.dev/v1
}

// diagLine is the form of every diagnostic: path:line:col: message.
var diagLine = regexp.MustCompile(`^(\S+):(\d+):(\d+): \S`)

// TestInvalid generates each invalid catalog and compares the error with
// its golden gen/testdata/invalid/<case>.golden. Each case holds one
// mistake, so each must give exactly one diagnostic, in the catalog's
// folder, with a line and column.
func TestInvalid(t *testing.T) {
	entries, err := os.ReadDir("../testdata/invalid")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".golden")
		if !slices.Contains(invalidCases, name) {
			t.Errorf("gen/testdata/invalid/%s is not in invalidCases: add the case or delete it", e.Name())
		}
	}
	g := goldie.New(t, goldie.WithFixtureDir("../testdata/invalid"), goldie.WithNameSuffix(".golden"))
	for _, name := range invalidCases {
		t.Run(name, func(t *testing.T) {
			dir := "gen/testdata/invalid/" + name + "/descriptors"
			files, err := GenerateWith(Options{Root: root, Descriptors: dir, Out: "zz_generated"}, loadModel(t))
			if err == nil {
				t.Fatalf("generated %d files; want an error", len(files))
			}
			msg := err.Error()
			lines := strings.Split(msg, "\n")
			if len(lines) != 1 {
				t.Errorf("%d diagnostics for one mistake, want 1:\n%s", len(lines), msg)
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, dir+"/") || !diagLine.MatchString(l) {
					t.Errorf("diagnostic not of the form %s/<file>:LINE:COL: message:\n%s", dir, l)
				}
			}
			g.Assert(t, name, []byte(msg+"\n"))
		})
	}
}
