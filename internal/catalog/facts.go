package catalog

import (
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// Chart is what is known of a chart one of a unit's HelmReleases installs,
// read off its sources at Version (descriptors/README.md, "Charts"). The
// generator checked Chart and Version against every base release holding
// the HelmRelease.
type Chart struct {
	// Chart is the chart's name; Version the version read ("" for a chart
	// from a Git source).
	Chart, Version string
	// HelmRelease is the HelmRelease installing it.
	HelmRelease string
	// Values is the overlay path of the unit's file holding the values the
	// chart reads: a values file, or a HelmRelease's spec.values.
	Values string
	// Read says where the facts were read.
	Read string
	// Reads are the values paths the chart reads, or parents it passes on whole.
	Reads []string
	// Gates are switches the chart reads a part of its values under.
	Gates []ChartGate
	// Required are values the chart requires that the base leaves out.
	Required []ChartRequired
	// Templated are values paths the chart passes through Helm's tpl ('*': any key).
	Templated []string
	// Unquoted are values paths the chart writes into YAML unquoted.
	Unquoted []ChartUnquoted
	// EnvExpanded are values paths that become a config whose consumer
	// expands ${NAME} from its environment.
	EnvExpanded []string
	// CRDs says where the chart keeps CRDs; nil when not recorded.
	CRDs *ChartCRDs
	// ValuesSchema is the chart's values.schema.json, when its project
	// ships it in a Go module.
	ValuesSchema *Schema
	// Budgets are the PodDisruptionBudgets the chart makes.
	Budgets []Budget
	// Accepts are config fields whose values the chart at Version limits.
	Accepts []Accept
}

// ChartGate is a switch a chart reads Under under: with anything set
// under Under, Gate must be Open once the base's values (Base) and the
// overlay's merge.
type ChartGate struct {
	Under, Gate string
	Open, Base  bool
	Read        string
}

// ChartRequired is a value a chart requires in every mode.
type ChartRequired struct {
	Path, Read string
}

// ChartUnquoted is a values path a chart writes unquoted, when the value
// at If equals Equals (always when If is "").
type ChartUnquoted struct {
	Path, If, Equals string
}

// CRD locations of a chart.
const (
	CRDsNone      = "none"
	CRDsTemplates = "templates"
	CRDsDir       = "crds/"
)

// ChartCRDs is where a chart keeps CRDs and what upgrades them.
type ChartCRDs struct {
	// In is CRDsNone, CRDsTemplates or CRDsDir.
	In string
	// At names the files; UpgradedBy what upgrades CRDs kept in crds/.
	At, UpgradedBy string
	// Schemas are the CRDs of the custom resources the unit's files write.
	Schemas []Schema
}

// Replaced reports whether Helm must replace the chart's CRDs: they are in
// crds/, which Helm never upgrades, and nothing else does.
func (c *ChartCRDs) Replaced() bool { return c != nil && c.In == CRDsDir && c.UpgradedBy == "" }

// Schema is a schema file: File in the Go module Module at Version, or,
// with Module empty, File relative to the repository root (kept under
// descriptors/schemas/<unit>/).
type Schema struct {
	Module, Version, File string
}

// Budget is a PodDisruptionBudget a chart makes for a workload (values
// paths, and the base's settings).
type Budget struct {
	Workload, Replicas string
	Autoscaling        string
	AutoscalingBase    bool
	MinReplicas        int
	Enabled            string
	EnabledBase        bool
	MinAvailable       string
	MinAvailableBase   int
	MaxUnavailable     string
	Quorum             string
	Read               string
}

// Accept limits a string field of the config to the values a chart runs.
type Accept struct {
	// Field is the config path; Get reads it ("" when absent).
	Field string
	Get   func(c *config.Config) string
	// Values are what the chart runs, the last its default; What says what
	// a value is, for messages.
	Values []string
	What   string
	Read   string
}

// ServiceMaker is a Service a unit's chart (for each release of Chart) or
// operator (for each object of Kind) creates.
type ServiceMaker struct {
	Chart, Kind string
	Fullname    string
	Max         int
	Fixed       string
	Suffix      string
	Port        int
	Read        string
}

// Name is the Service's name for owner: the Helm release's name, or the
// custom resource's.
func (s ServiceMaker) Name(owner string) string {
	switch {
	case s.Fixed != "":
		return s.Fixed
	case s.Fullname == "":
		return owner + s.Suffix
	}
	full := owner
	if !strings.Contains(owner, s.Fullname) {
		full = owner + "-" + s.Fullname
	}
	limit := s.Max
	if limit == 0 {
		limit = 63
	}
	return strings.TrimSuffix(full[:min(len(full), limit)], "-") + s.Suffix
}

// Login is a hostname at which the cluster Gateway publishes a page of
// the unit that asks for a login.
type Login struct {
	// Hostname is the config path of the name; Get reads it.
	Hostname string
	Get      func(c *config.Config) string
	// When gates the login, with the unit's gate.
	When Cond
}

// Example is a config the tests render for a unit's fields and modes: a
// fixture config (testdata/fixture/.k8s-<Config>-config.yaml) with Drop
// removed, then Set and Bools set.
type Example struct {
	Name, Config string
	Set          map[string]string
	Bools        map[string]bool
	Drop         []string
}

// LoginHostnames are the hostnames of the login pages of the active
// service units of config c, in unit order.
func LoginHostnames(c *config.Config, units []Unit) []string {
	var names []string
	for i := range units {
		u := &units[i]
		if len(u.Logins) == 0 || u.Gate.Eval == nil || !u.Gate.Holds(c) {
			continue
		}
		for _, l := range u.Logins {
			if l.When.Holds(c) {
				names = append(names, l.Get(c))
			}
		}
	}
	return names
}
