package descriptor

// Chart is what is known of one chart a unit's HelmRelease installs, read
// off the chart's sources at Version: the values it reads and how, where it
// keeps CRDs, and what it restricts. The generator checks the chart and
// version against every base release that holds the HelmRelease; a chart
// that moves fails `go generate` until it is read again.
type Chart struct {
	// Chart is the chart's name, as spec.chart.spec.chart says it.
	Chart string `json:"chart"`
	// Version is the version the facts were read off ("" for a chart from
	// a Git source, which has none).
	Version string `json:"version,omitempty"`
	// HelmRelease is the HelmRelease installing it (default: a standard
	// unit's helm_release).
	HelmRelease string `json:"helm_release,omitempty"`
	// Values is the unit's overlay file holding the values the chart
	// reads (default: a standard unit's helm-values/override-values.yaml);
	// a HelmRelease file's spec.values.
	Values string `json:"values,omitempty"`
	// Read says where the facts were read: repository, tag, files.
	Read string `json:"read"`
	// Reads are the values paths the chart reads, or parents it passes on
	// whole: a value set elsewhere does nothing, or worse.
	Reads []string `json:"reads,omitempty"`
	// Gates are switches the chart reads a part of its values under.
	Gates []ChartGate `json:"gates,omitempty"`
	// Required are values the chart's templates require (Helm's
	// `required`) in every mode the unit renders, which the base leaves out.
	Required []ChartRequired `json:"required,omitempty"`
	// Templated are values paths the chart passes through Helm's tpl,
	// which runs {{ }} in them at install; '*' stands for any key.
	Templated []string `json:"templated,omitempty"`
	// Unquoted are values paths the chart writes into a YAML file as
	// given, unquoted.
	Unquoted []ChartUnquoted `json:"unquoted,omitempty"`
	// EnvExpanded are values paths that become a config in which the
	// consumer expands ${NAME} from its environment.
	EnvExpanded []string `json:"env_expanded,omitempty"`
	// CRDs says where the chart keeps CRDs and what upgrades them.
	CRDs *ChartCRDs `json:"crds,omitempty"`
	// ValuesSchema is the chart's values.schema.json, when its project
	// ships it in a Go module.
	ValuesSchema *Schema `json:"values_schema,omitempty"`
	// Budgets are the PodDisruptionBudgets the chart makes.
	Budgets []Budget `json:"budgets,omitempty"`
	// Accepts are config fields whose values the chart at Version limits.
	Accepts []Accept `json:"accepts,omitempty"`
}

// ChartGate is a switch the chart reads a part of its values under: set
// anything under Under, and Gate, as the base's values and the overlay's
// merge, must be Open.
type ChartGate struct {
	Under string `json:"under"`
	Gate  string `json:"gate"`
	// Open is the switch's value under which the chart reads Under.
	Open bool `json:"open"`
	// Base is the switch's value in the base's values.
	Base bool   `json:"base"`
	Read string `json:"read"`
}

// ChartRequired is a value the chart requires.
type ChartRequired struct {
	Path string `json:"path"`
	Read string `json:"read"`
}

// ChartUnquoted is a values path the chart writes unquoted, when the
// value at If (a values path) equals Equals, or always.
type ChartUnquoted struct {
	Path   string `json:"path"`
	If     string `json:"if,omitempty"`
	Equals string `json:"equals,omitempty"`
}

// CRD locations.
const (
	CRDsNone      = "none"
	CRDsTemplates = "templates"
	CRDsDir       = "crds/"
)

// ChartCRDs is where a chart keeps CRDs (its own or an enabled
// subchart's) and what keeps them current.
type ChartCRDs struct {
	// In is none, templates (Helm upgrades them with the release) or crds/
	// (Helm installs them where none of the name exists and never upgrades
	// them).
	In string `json:"in"`
	// At names the files, for readers.
	At string `json:"at,omitempty"`
	// UpgradedBy is what upgrades CRDs kept in crds/; empty for nothing,
	// and then the render has Helm replace them (CreateReplace).
	UpgradedBy string `json:"upgraded_by,omitempty"`
	// Schemas are the CRDs of the custom resources the unit's files write,
	// which the tests validate them against.
	Schemas []Schema `json:"schemas,omitempty"`
}

// Schema is a schema file: in a Go module at a version, or kept beside
// the descriptor, under descriptors/schemas/<unit>/.
type Schema struct {
	Module  string `json:"module,omitempty"`
	Version string `json:"version,omitempty"`
	File    string `json:"file"`
}

// Budget is a PodDisruptionBudget a chart makes for a workload, as read:
// what makes the budget, the pods it counts and those it keeps up.
type Budget struct {
	// Workload names the workload, for messages.
	Workload string `json:"workload"`
	// Replicas is the values path of its pod count (the chart's default 1).
	Replicas string `json:"replicas"`
	// Autoscaling is the values path of a switch that scales it with a
	// HorizontalPodAutoscaler instead, which ignores Replicas;
	// AutoscalingBase its value in the base, MinReplicas the pods then.
	Autoscaling     string `json:"autoscaling,omitempty"`
	AutoscalingBase bool   `json:"autoscaling_base,omitempty"`
	MinReplicas     int    `json:"min_replicas,omitempty"`
	// Enabled is the values path of the budget's switch, EnabledBase its
	// value in the base; without one the chart makes a budget for more
	// than one pod.
	Enabled     string `json:"enabled,omitempty"`
	EnabledBase bool   `json:"enabled_base,omitempty"`
	// MinAvailable and MaxUnavailable are the values paths of the budget's
	// settings; MinAvailableBase the base's minAvailable.
	MinAvailable     string `json:"min_available,omitempty"`
	MinAvailableBase int    `json:"min_available_base,omitempty"`
	MaxUnavailable   string `json:"max_unavailable,omitempty"`
	// Quorum is the values path of a replication factor: without
	// maxUnavailable the budget keeps a write quorum (factor/2 + 1) up.
	Quorum string `json:"quorum,omitempty"`
	Read   string `json:"read"`
}

// Accept limits a config field to the values the chart runs.
type Accept struct {
	// Field is the config path of a string field.
	Field string `json:"field"`
	// Values are the values the chart runs; the last is its default.
	Values []string `json:"values"`
	// What says what a value is, for messages: "a Kafka version the
	// Strimzi operator runs".
	What string `json:"what"`
	Read string `json:"read"`
}

// ServiceMaker is a Kubernetes Service the unit's chart or operator
// creates that a rendered file names (an HTTPRoute's backend, an
// in-cluster URL): its name as the maker derives it, and its port.
type ServiceMaker struct {
	// Chart makes the Service for each of its releases (a chart of the
	// unit's charts); Kind instead names the custom resource an operator
	// makes it for, one per object of the kind the base applies.
	Chart string `json:"chart,omitempty"`
	Kind  string `json:"kind,omitempty"`
	// Fullname is the chart name in helm create's fullname helper: the
	// release name when it contains Fullname, else <release>-<Fullname>,
	// cut to Max (63) characters without a trailing '-'.
	Fullname string `json:"fullname,omitempty"`
	Max      int    `json:"max,omitempty"`
	// Fixed is a name the chart gives whatever the release.
	Fixed string `json:"fixed,omitempty"`
	// Suffix follows the fullname, or the custom resource's name.
	Suffix string `json:"suffix,omitempty"`
	Port   int    `json:"port"`
	Read   string `json:"read"`
}

// Login is a hostname at which the cluster Gateway publishes a page that
// asks for a login: its routes take HTTPS alone, plain HTTP to it is
// redirected, and validation holds the Gateway to serving it over HTTPS.
type Login struct {
	// Hostname is the config path of the string field holding the name.
	Hostname string `json:"hostname"`
	// When gates the login, ANDed with the unit's gate.
	When *Condition `json:"when,omitempty"`
	// WhenMethod names a method of the service's config type, func() bool,
	// ANDed too: for a rule the conditions cannot say.
	WhenMethod string `json:"when_method,omitempty"`
}

// Example is a config the tests render, with the fixture configs, so that
// every string field and every mode of the unit is planned, checked and
// tried with hostile values: a fixture config with values set and keys
// dropped.
type Example struct {
	Name string `json:"name"`
	// Config names the fixture config it starts from:
	// testdata/fixture/.k8s-<config>-config.yaml (default dev).
	Config string `json:"config,omitempty"`
	// Set maps config paths (list items as [i]) to strings; Bools to
	// bools. A service it switches on has its strings tried too.
	Set   map[string]string `json:"set,omitempty"`
	Bools map[string]bool   `json:"bools,omitempty"`
	// Drop lists config paths removed first.
	Drop []string `json:"drop,omitempty"`
}
