package catalog

import (
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// Layer groups units; it decides where their Flux objects are written.
type Layer string

// The layers of an overlay.
const (
	LayerCluster         Layer = "cluster"
	LayerServices        Layer = "services"
	LayerManagedServices Layer = "managed-services"
	LayerCustomerManaged Layer = "customer-managed"
)

// Layers lists every layer, in rendering order.
var Layers = []Layer{LayerCluster, LayerServices, LayerManagedServices, LayerCustomerManaged}

// Dir is the overlay directory holding the layer's sources/ and fluxcd/.
func (l Layer) Dir() string {
	if l == LayerCluster {
		return string(LayerServices)
	}
	return string(l)
}

// Repo says which repository a source points at.
type Repo string

// The repositories a source can point at.
const (
	RepoBase     Repo = "base"     // gitops.base_repo, or the service's source override
	RepoCluster  Repo = "cluster"  // gitops.repository, the cluster's own repo
	RepoCustomer Repo = "customer" // overlay_units.customer_managed.repository_url
)

// Builtin names overlay content the renderer computes in Go instead of from a
// template, because it is derived from the whole plan or from config lists.
type Builtin string

// The builtins.
const (
	// BuiltinRoot is the overlay's root kustomization.yaml.
	BuiltinRoot Builtin = "root"
	// BuiltinAggregate is a kustomization.yaml listing every file the plan puts in its directory.
	BuiltinAggregate Builtin = "aggregate"
	// BuiltinSOPS is .sops.yaml from the sops rules.
	BuiltinSOPS Builtin = "sops"
	// BuiltinCustomerManaged is the customer GitRepository, its optional Secret and its Kustomizations.
	BuiltinCustomerManaged Builtin = "customer-managed"
	// BuiltinStandard is a standard unit's kustomization.yaml: its namespace,
	// the values override Secret from helm-values/override-values.yaml, and
	// every other file the plan puts in its directory.
	BuiltinStandard Builtin = "standard"
)

// Builtins lists every builtin, sorted.
var Builtins = []Builtin{BuiltinAggregate, BuiltinCustomerManaged, BuiltinRoot, BuiltinSOPS, BuiltinStandard}

// Cond is a compiled condition.
type Cond struct {
	// Text is the condition as written, for messages: "opencenter.services.keycloak.backup_enabled is true".
	Text string
	// Eval reports whether the condition holds; a field absent at render time makes it false.
	Eval func(c *config.Config) bool
}

// Holds reports whether the condition holds; the zero Cond always holds.
func (k Cond) Holds(c *config.Config) bool { return k.Eval == nil || k.Eval(c) }

// Unit is one overlay unit: a service, a managed service, the customer-managed
// layer or cluster-wide files.
type Unit struct {
	// Name is the unit's unique name.
	Name string
	// Layer the unit belongs to.
	Layer Layer
	// Descriptor is the file the unit was compiled from, for messages.
	Descriptor string
	// Description is one line about the unit.
	Description string
	// Service is the config key gating the unit (services.<key> or managed_services.<key>); "" for none.
	Service string
	// Namespace is the unit's default namespace; the service's namespace field overrides it.
	Namespace string
	// Gate is the service gate ANDed with enabled_when, as text and func.
	Gate Cond
	// ActiveWith makes the unit active when any of these units is active.
	ActiveWith []string
	// Requires names units that must be active when this one is.
	Requires []string
	// Sources are the GitRepository objects the unit emits.
	Sources []Source
	// FluxUnits are the Flux Kustomizations the unit emits.
	FluxUnits []FluxUnit
	// Root is the unit's overlay directory, relative to the overlay root.
	Root string
	// Files are the overlay files the unit may write under Root.
	Files []File
	// HelmRelease is the base HelmRelease of a standard unit.
	HelmRelease string
	// ValuesSecret is the override Secret the base HelmRelease reads, for standard units.
	ValuesSecret string
	// Common returns the service's common fields, nil when the service is absent; nil for non-service units.
	Common func(c *config.Config) *config.ServiceCommon
	// Source returns the service's source override, nil when the service is
	// absent or gives none; nil for a service that cannot give one (it has no
	// base directory of its own, or shares its group's source).
	Source func(c *config.Config) *config.SourceOverride
	// ExistingSecrets returns the names of Secrets outside the repository
	// that the service's config names: what its *existing_secret fields
	// hold ("" for a field not set), then those it names as provided
	// (config.ProvidedSecrets); nil for a unit whose service names none.
	ExistingSecrets func(c *config.Config) []string
	// Releases lists the base releases that hold every base path the unit
	// applies; nil when it applies none (it exists in every release).
	Releases []string
	// Charts are what is known of the charts the unit's HelmReleases install.
	Charts []Chart
	// Services are the Services the unit's charts or operators create that
	// rendered files name.
	Services []ServiceMaker
	// Logins are the hostnames of the unit's pages that ask for a login.
	Logins []Login
	// Examples are the configs the tests render for the unit's fields and modes.
	Examples []Example
}

// SourceOverride returns the source override of the unit's service: nil
// when the service is absent or gives none, and for a service that cannot
// give one.
func (u *Unit) SourceOverride(c *config.Config) *config.SourceOverride {
	if u.Source == nil {
		return nil
	}
	return u.Source(c)
}

// NamespaceOf is the unit's namespace for config c: the service's
// namespace override, else the descriptor's.
func (u *Unit) NamespaceOf(c *config.Config) string {
	if u.Common != nil {
		if sc := u.Common(c); sc != nil && sc.Namespace != "" {
			return sc.Namespace
		}
	}
	return u.Namespace
}

// ServicePath is the YAML path of the unit's service:
// opencenter.services.<key> or opencenter.managed_services.<key>.
func (u *Unit) ServicePath() string {
	if u.Layer == LayerManagedServices {
		return "opencenter.managed_services." + u.Service
	}
	return "opencenter.services." + u.Service
}

// BaseRelease is the index of one base release, compiled from
// descriptors/base-index.
type BaseRelease struct {
	// Ref is the tag or branch; Commit what it named at extraction.
	Ref, Commit string
	// Branch marks a Ref that is a branch rather than a release tag.
	Branch bool
	// Dirs maps each kustomization directory to the objects its build creates.
	Dirs map[string][]BaseObject
	// Charts maps each chart the release's HelmReleases install to its
	// version.
	Charts map[string]string
}

// BaseObject is an object a base directory creates.
type BaseObject struct {
	APIVersion, Kind, Name, Namespace string
	// CRDGroup is the API group a CustomResourceDefinition defines.
	CRDGroup string
	// Generated marks generator output, which is not a committed manifest.
	Generated bool
	// InstallNamespace is, for a HelmRelease that sets spec.targetNamespace,
	// the namespace its chart installs into wherever the HelmRelease itself
	// is applied.
	InstallNamespace string
	// Home is the base directory of the manifest that defines the object,
	// when that is not the directory built: a kustomization listing another
	// directory's file shares the object with that directory's build.
	Home string
}

// Source is one GitRepository.
type Source struct {
	// Name of the GitRepository.
	Name string
	// Repo is the repository it points at.
	Repo Repo
	// Include copies paths of other sources into this one's artifact.
	Include []Include
}

// Include is a GitRepository include.
type Include struct {
	// Source names the included GitRepository.
	Source string
	// From is the path in the included repository.
	From string
	// To is the path in this artifact; may contain {overlay}.
	To string
}

// FluxUnit is one Flux Kustomization.
type FluxUnit struct {
	// Name of the Kustomization.
	Name string
	// Source names the GitRepository it applies, or "flux-system" for the cluster repo.
	Source string
	// Path in the source; {overlay} stands for applications/overlays/<cluster>.
	Path string
	// TargetNamespace of applied objects; {namespace} stands for the unit's namespace; "" for none.
	TargetNamespace string
	// DependsOn names Flux units that must be ready first.
	DependsOn []string
	// Wait waits for every applied object to be ready.
	Wait bool
	// HealthChecks are the objects whose readiness makes the unit ready.
	HealthChecks []HealthCheck
	// When gates the Flux unit inside an active unit.
	When Cond
	// Provides lists the API groups whose CRDs this Flux unit installs (for
	// example through its HelmRelease's chart), so that every Flux unit
	// applying objects of those groups is ordered after it.
	Provides []string
	// Needs lists the API groups of custom resources this Flux unit
	// creates without a manifest its build shows (its HelmRelease's chart):
	// it is ordered after their provider, which must be active.
	Needs []string
	// Wants lists the API groups whose CRDs this Flux unit's chart looks
	// for at start when the cluster has them: it is ordered after their
	// provider when one is active.
	Wants []string
	// Only lists the kinds of its path's objects this Flux unit applies,
	// empty for all: the render takes the others out of its build with
	// Flux patches, and another Flux unit building the same path leaves
	// these to it and follows it.
	Only []string
	// ValuesFrom are the Secrets of values that the render adds, with a
	// Flux patch, to the valuesFrom of the unit's HelmRelease: on a
	// standard unit's base Flux unit.
	ValuesFrom []ValuesFrom
	// ReplaceCRDs says the unit's chart ships CRDs in a crds/ directory,
	// which Helm installs only where none exists and never upgrades: the
	// render sets its HelmRelease's install and upgrade CRD policy to
	// CreateReplace with a Flux patch, on a standard unit's base Flux unit.
	ReplaceCRDs bool
}

// ValuesFrom is a Secret whose key ValuesKey holds values of a HelmRelease.
type ValuesFrom struct {
	// Secret names the Secret, in the unit's namespace.
	Secret string
	// SecretOf, when not nil, names it instead: a config field naming a
	// Secret outside the repository, "" when the config gives none.
	SecretOf func(c *config.Config) string
	// When gates the reference.
	When Cond
}

// Name is the Secret's name for config c, "" when it has none.
func (v ValuesFrom) Name(c *config.Config) string {
	if !v.When.Holds(c) {
		return ""
	}
	if v.SecretOf != nil {
		return v.SecretOf(c)
	}
	return v.Secret
}

// ValuesKey is the key of a ValuesFrom Secret that the HelmRelease reads.
const ValuesKey = "values.yaml"

// HealthCheck references an object Flux waits for.
type HealthCheck struct {
	APIVersion string
	Kind       string
	Name       string
	// Namespace may be {namespace}.
	Namespace string
}

// File is an overlay file of a unit.
type File struct {
	// Path relative to the unit's Root (templates without their .tpl suffix).
	Path string
	// OverlayPath is Path joined to the unit's Root: the file's path
	// relative to the overlay root, joined at generate time.
	OverlayPath string
	// Template is the path in descriptors.Files of its template or static file; "" for builtins.
	Template string
	// IsTemplate is true for .tpl files.
	IsTemplate bool
	// Render is a template compiled to Go (zz_generated/templates.go): it
	// appends the file's content to b, every config value escaped for its
	// context. An error names the config path of the value at fault.
	Render func(b []byte, c *config.Config, u *Info) ([]byte, error)
	// Builtin names computed content instead of a template.
	Builtin Builtin
	// Secret marks content taken from secrets: (written 0600, needs --allow-plaintext-secrets).
	Secret bool
	// When gates the file.
	When Cond
}

// Info is what templates see of their unit as .Unit.
type Info struct {
	// Name of the unit.
	Name string
	// Namespace the unit deploys to (after the config's override).
	Namespace string
	// Overlay is applications/overlays/<cluster>.
	Overlay string
	// Root is the unit's overlay directory relative to the overlay root.
	Root string
	// HelmRelease is the name of the base HelmRelease, for standard units.
	HelmRelease string
	// ValuesSecret is the override Secret the base HelmRelease reads, for standard units.
	ValuesSecret string
}

// OverrideValuesKey is the key of a standard unit's override Secret that its
// base HelmRelease reads (valuesFrom valuesKey).
const OverrideValuesKey = "override.yaml"

// clusterScoped are the kinds whose objects have no namespace: those the
// catalog and the base repository apply, and every cluster-scoped kind of
// the CRDs the tests validate against (TestClusterScopedAgreesWithCRDs in
// internal/plan holds the list to their scopes).
var clusterScoped = map[string]bool{
	"Namespace": true, "CustomResourceDefinition": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"StorageClass": true, "PriorityClass": true, "ClusterIssuer": true, "GatewayClass": true,
	"ClusterPolicy": true, "MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true,
	"APIService": true, "PersistentVolume": true, "VolumeSnapshotClass": true, "CSIDriver": true,
	"IngressClass": true,
	// rbac-manager's chart 1.21.1, templates/customresourcedefinition.yaml: scope Cluster.
	"RBACDefinition": true,
	// The Gateway API's experimental channel (v1.6.1, bundled by Envoy Gateway's chart).
	"XMesh": true,
}

// Group is the object's API group ("" for the core group).
func (o BaseObject) Group() string {
	g, _, ok := strings.Cut(o.APIVersion, "/")
	if !ok {
		return ""
	}
	return g
}

// ClusterScoped reports whether objects of kind have no namespace.
func ClusterScoped(kind string) bool { return clusterScoped[kind] }
