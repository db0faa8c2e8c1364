package config

// Patterns of formatted strings, shared by validation and the JSON Schema
// (the generator reads them by the `format` struct tag).
const (
	// PatternDNSLabel is a DNS-1123 label (at most 63 characters).
	PatternDNSLabel = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// PatternDuration is a Flux duration such as 10m or 1h30m.
	PatternDuration = `^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`
	// PatternS3Bucket is the syntax of an S3 bucket name that every S3
	// client of the services reads: letters, digits, '.', '-' and '_',
	// starting and ending with a letter or digit, 3 to 63 (the rules about
	// '.', '-' and addresses are bounds).
	PatternS3Bucket = `^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$`
	// PatternHost is a host: a DNS name (letters, digits and '-', labels
	// joined by '.') or an IPv4 or IPv6 address, without brackets (that it
	// is an address when it holds ':' is a bound).
	PatternHost = `^([A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$`
	// PatternGoDuration is the syntax Go's time.ParseDuration reads,
	// without a sign: numbers with units from ns to h, or 0.
	PatternGoDuration = `^(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`
	// PatternGitURL is a Git URL Flux can fetch: ssh://, https:// or scp-style git@host:path.
	PatternGitURL = `^(ssh://.+|https://.+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/].*)$`
	// PatternRepoPath is a path from the root of a repository: "/" or
	// "/" and segments that do not start with a dot (no "..", no "//"),
	// so it can never leave the repository.
	PatternRepoPath = `^/([A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*)?$`
)

// More patterns of typed values: Kubernetes quantities and names, hosts,
// URLs, networks, retention periods, schedules.
const (
	// PatternQuantity is a Kubernetes resource quantity such as 10Gi or 500M.
	PatternQuantity = `^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$`
	// PatternDNSSubdomain is a DNS-1123 subdomain: a Kubernetes object name
	// such as a StorageClass, and a hostname (at most 253 characters).
	PatternDNSSubdomain = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// PatternWildcardHostname is a hostname that may start with "*." (a
	// Gateway listener's).
	PatternWildcardHostname = `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// PatternURL is an http(s) URL with a host and no whitespace.
	PatternURL = `^https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[^\s]*)?$`
	// PatternCIDR is an IPv4 or IPv6 network in CIDR notation.
	PatternCIDR = `^([0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}|[0-9A-Fa-f:]+/[0-9]{1,3})$`
	// PatternRetention is a retention period as Prometheus, Loki and Mimir
	// read it: numbers with units, largest first and each unit at most once
	// (y, w, d, h, m, s, ms: 15d, 1w3d, 12h30m), or 0. Empty is unset.
	PatternRetention = `^(0|([0-9]+y)?([0-9]+w)?([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?)$`
	// PatternCron is a cron schedule of five fields, or a @macro, as the
	// cron parser of Kubernetes CronJobs and Velero reads it (no Quartz L,
	// W or #).
	PatternCron = `^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|[0-9*,/?-]+( [0-9A-Za-z*,/?-]+){4})$`
	// PatternEmail is an e-mail address.
	PatternEmail = `^[^@\s]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`
	// PatternGitRef is the syntax of a Git branch or tag name: no blank or
	// control character, none of ~ ^ : ? * [ \, and no leading '-' (the
	// rules about '.', '/', ".." and "@{" are bounds).
	PatternGitRef = `^[^-\s~^:?*\[\\\x00-\x1f\x7f][^\s~^:?*\[\\\x00-\x1f\x7f]*$`
	// PatternLabelKey is a Kubernetes label key: a name of letters, digits,
	// '-', '_' and '.' that starts and ends with a letter or digit (at most
	// 63), with an optional DNS-1123 subdomain prefix and '/' (at most 253).
	PatternLabelKey = `^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`
	// PatternLabelValue is a Kubernetes label value: letters, digits, '-',
	// '_' and '.', starting and ending with a letter or digit (at most 63),
	// or empty.
	PatternLabelValue = `^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$`
	// PatternCoreNumber is a Rackspace Core account or device number:
	// decimal digits (alert-proxy puts it in Watchman's webhook URL).
	PatternCoreNumber = `^[0-9]+$`
	// PatternAWSRegion is an AWS region such as us-east-1: a host label of
	// the AWS endpoints the region names.
	PatternAWSRegion = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// PatternUUID is an OpenStack resource ID as its API and CLI print it: a
	// UUID of hex digits in groups of 8, 4, 4, 4 and 12.
	PatternUUID = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
)

// Formats maps a `format` struct tag to its pattern.
var Formats = map[string]string{
	"dns-label":         PatternDNSLabel,
	"dns-subdomain":     PatternDNSSubdomain,
	"wildcard-hostname": PatternWildcardHostname,
	"duration":          PatternDuration,
	"go-duration":       PatternGoDuration,
	"s3-bucket":         PatternS3Bucket,
	"host":              PatternHost,
	"git-url":           PatternGitURL,
	"repo-path":         PatternRepoPath,
	"quantity":          PatternQuantity,
	"url":               PatternURL,
	"cidr":              PatternCIDR,
	"retention":         PatternRetention,
	"cron":              PatternCron,
	"email":             PatternEmail,
	"git-ref":           PatternGitRef,
	"label-key":         PatternLabelKey,
	"label-value":       PatternLabelValue,
	"core-number":       PatternCoreNumber,
	"aws-region":        PatternAWSRegion,
	"uuid":              PatternUUID,
}

// FormatDocs says what each format expects, for messages and explain.
var FormatDocs = map[string]string{
	"dns-label":         "a DNS-1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit",
	"dns-subdomain":     "a DNS-1123 subdomain (a Kubernetes name or a hostname): lowercase letters, digits, '-' and '.', at most 253",
	"wildcard-hostname": "a hostname, which may start with *. (*.apps.example.com): at most 253 characters, each label at most 63",
	"duration":          "a duration such as 10m or 1h30m (units ms, s, m, h), at most 2562047h",
	"go-duration":       "a Go duration such as 720h or 1h30m (units ns, us, ms, s, m, h), at most 2562047h, or 0",
	"s3-bucket":         "an S3 bucket name such as etcd-backups: 3 to 63 letters, digits, '.', '-' or '_', starting and ending with a letter or digit, no '..', '.-' or '-.', not an IP address",
	"host":              "a DNS name such as vcenter.example.com (labels of at most 63 letters, digits or '-', at most 253 in all) or an IP address such as 10.0.0.5 or fd00::5, without brackets or port",
	"git-url":           "a Git URL Flux can fetch: ssh://..., https://... or git@host:path, with a host and no blank",
	"repo-path":         "a path from the repository root such as /apps/prod, without .. or //",
	"quantity":          "a Kubernetes quantity above zero such as 10Gi, 500Mi or 1T",
	"url":               "an http:// or https:// URL with a host, any % followed by two hex digits",
	"cidr":              "a network in CIDR notation such as 10.244.0.0/16 (an IPv4 or IPv6 address and a prefix length that fits it)",
	"retention":         "a retention period such as 15d, 2w or 336h (units y, w, d, h, m, s, ms, largest first, each once; at most 292y), or 0",
	"cron":              "a cron schedule of five fields such as \"0 2 * * *\" (minute 0-59, hour 0-23, day 1-31, month 1-12 or JAN-DEC, weekday 0-6 or SUN-SAT; no L, W or #), or @daily",
	"email":             "an e-mail address (name@example.com, no display name or comment)",
	"git-ref":           "a Git branch or tag name such as main or release/2026.01: no blank, ~, ^, :, ?, *, [ or \\, no .., @{ or //, not starting with - or /, no part starting with . or ending with .lock, not ending with / or .",
	"label-key":         "a Kubernetes label key such as tier or example.com/cost-center: a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, after an optional DNS-1123 subdomain prefix (at most 253) and '/'",
	"label-value":       "a Kubernetes label value: at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, or empty",
	"core-number":       "a Rackspace Core account or device number: decimal digits, such as 1048576",
	"aws-region":        "an AWS region such as us-east-1: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit",
	"uuid":              "an OpenStack ID, a UUID such as 6513270e-269e-4d37-b2a7-4de452e6b438 (an ID, not a name: 'openstack network show NAME -f value -c id' prints a network's)",
}

// Config is one cluster config file.
type Config struct {
	// SchemaVersion is the version of this file's format; 1 is the only version today.
	SchemaVersion int `json:"schema_version,omitempty" default:"1"`
	// OpenCenter is everything that is not secret material.
	OpenCenter OpenCenter `json:"opencenter"`
	// Secrets holds secret material. It is never rendered in plaintext unless asked for.
	Secrets Secrets `json:"secrets,omitempty"`
}

// OpenCenter is the non-secret part of a cluster config.
type OpenCenter struct {
	// Meta describes who owns the cluster and where it runs.
	Meta Meta `json:"meta"`
	// Cluster names the cluster and its DNS domain.
	Cluster Cluster `json:"cluster"`
	// Infrastructure describes the platform the cluster runs on.
	Infrastructure Infrastructure `json:"infrastructure"`
	// GitOps configures the Git repositories and Flux settings of the overlay.
	GitOps GitOps `json:"gitops"`
	// Services turns platform services on and configures them.
	Services Services `json:"services,omitempty"`
	// ManagedServices turns provider-managed services on and configures them.
	ManagedServices ManagedServices `json:"managed_services,omitempty"`
}

// Meta describes who owns the cluster and where it runs.
type Meta struct {
	// Name is a DNS-1123 label naming this deployment (often the cluster name).
	Name string `json:"name" format:"dns-label"`
	// Organization is the company or team that owns the cluster.
	Organization string `json:"organization,omitempty"`
	// Env is the environment, free text such as dev, dr, prod, qa or uat.
	Env string `json:"env,omitempty"`
	// Region is the data-centre region the cluster runs in, such as iad3.
	Region string `json:"region,omitempty"`
	// Labels are extra labels added to every Flux object of the overlay;
	// opencenter sets app.kubernetes.io/part-of, app.kubernetes.io/managed-by
	// and opencenter/managed-by itself.
	Labels map[string]string `json:"labels,omitempty" format:"label-value" key_format:"label-key"`
}

// The labels the renderer sets on every Flux object itself, with the unit's
// name, "flux" and "opencenter"; meta.labels cannot set them.
const (
	LabelPartOf     = "app.kubernetes.io/part-of"
	LabelManagedBy  = "app.kubernetes.io/managed-by"
	LabelOpenCenter = "opencenter/managed-by"
)

// Cluster names the cluster and its DNS domain.
type Cluster struct {
	// ClusterName is a DNS-1123 label naming the cluster and its overlay
	// directory applications/overlays/<cluster_name>; it must match the file name .<cluster_name>-config.yaml.
	ClusterName string `json:"cluster_name" format:"dns-label"`
	// ClusterFQDN is the fully qualified DNS name of the cluster's API endpoint.
	ClusterFQDN string `json:"cluster_fqdn,omitempty"`
	// BaseDomain is the DNS domain under which service hostnames are published; the gateway's default listeners serve *.<base_domain>.
	BaseDomain string `json:"base_domain,omitempty" format:"dns-subdomain"`
}

// Provider is the infrastructure platform of a cluster.
type Provider string

// The providers opencenter renders for.
const (
	ProviderOpenStack Provider = "openstack"
	ProviderVMware    Provider = "vmware"
	ProviderBaremetal Provider = "baremetal"
	ProviderKind      Provider = "kind"
)

// Infrastructure describes the platform the cluster runs on.
type Infrastructure struct {
	// Provider is the infrastructure platform: openstack, vmware, baremetal or kind.
	Provider Provider `json:"provider"`
}

// GitOps configures the Git repositories and Flux settings of the overlay.
type GitOps struct {
	// Repository is the cluster's own GitOps repository, the Flux source "flux-system".
	Repository Repository `json:"repository"`
	// BaseRepo is the shared base repository the overlays build on.
	BaseRepo BaseRepo `json:"base_repo,omitempty"`
	// Flux holds the reconciliation settings of every rendered Flux object.
	Flux Flux `json:"flux,omitempty"`
	// OverlayUnits configures the overlay units that are not services.
	OverlayUnits OverlayUnits `json:"overlay_units,omitempty"`
}

// Repository is the cluster's own GitOps repository.
type Repository struct {
	// URL of the repository: ssh://, https:// or scp-style git@host:path.
	URL string `json:"url" format:"git-url"`
	// Branch Flux follows in the repository.
	Branch string `json:"branch,omitempty" format:"git-ref" default:"main"`
}

// BaseRepo is the shared base repository the overlays build on.
type BaseRepo struct {
	// URL of the base repository: ssh://, https:// or scp-style git@host:path.
	// The default is the public repository over https, which Flux fetches
	// without credentials; an ssh URL needs secret_name.
	URL string `json:"url,omitempty" format:"git-url" default:"https://github.com/opencenter-cloud/openCenter-gitops-base.git"`
	// Branch of the base repository, used when release is empty.
	Branch string `json:"branch,omitempty" format:"git-ref"`
	// Release is the tag of the base repository to deploy; it wins over branch.
	// When neither release nor branch is set, the release is 2026.01. A
	// branch such as main is followed with branch, not release: Flux fetches
	// a release as a tag.
	Release string `json:"release,omitempty" format:"git-ref"`
	// SecretName names the Secret in flux-system holding credentials for the
	// base repository (and for services whose source override points at a
	// fork); required for an ssh URL, since Flux has no anonymous ssh.
	SecretName string `json:"secret_name,omitempty" format:"dns-subdomain"`
}

// DefaultBaseRelease is the base release used when base_repo sets neither
// release nor branch.
const DefaultBaseRelease = "2026.01"

// Ref is the tag or branch the base repository is followed at.
func (b *BaseRepo) Ref() string {
	if b.Release != "" {
		return b.Release
	}
	return b.Branch
}

// SourceOverride points one service at another repository or ref than base_repo.
type SourceOverride struct {
	// Repo is the repository URL; empty means gitops.base_repo.url.
	Repo string `json:"repo,omitempty" format:"git-url"`
	// Branch to follow, used when release is empty.
	Branch string `json:"branch,omitempty" format:"git-ref"`
	// Release is the tag to deploy; it wins over branch. A branch such as
	// main is followed with branch: Flux fetches a release as a tag.
	Release string `json:"release,omitempty" format:"git-ref"`
}

// Flux holds the reconciliation settings of every rendered Flux object.
type Flux struct {
	// Interval is how often Flux reconciles sources and Kustomizations.
	Interval string `json:"interval,omitempty" format:"duration" default:"15m"`
	// RetryInterval is how soon Flux retries a failed reconciliation.
	RetryInterval string `json:"retry_interval,omitempty" format:"duration" default:"1m"`
	// Timeout bounds one reconciliation.
	Timeout string `json:"timeout,omitempty" format:"duration" default:"10m"`
	// Prune deletes objects that were removed from Git.
	Prune *bool `json:"prune,omitempty" default:"true"`
}

// OverlayUnits configures the overlay units that are not services.
type OverlayUnits struct {
	// CustomerManaged is the customer's own repository of Kustomizations.
	CustomerManaged CustomerManaged `json:"customer_managed,omitempty"`
	// SOPS configures the .sops.yaml of the overlay.
	SOPS SOPS `json:"sops,omitempty"`
}

// CustomerManaged is the customer's own repository of Kustomizations, reconciled by Flux beside the platform.
type CustomerManaged struct {
	// Enabled renders the customer-managed layer.
	Enabled bool `json:"enabled,omitempty"`
	// RepositoryName is the DNS-1123 name of the customer GitRepository.
	RepositoryName string `json:"repository_name,omitempty" format:"dns-label" required_when:"enabled"`
	// RepositoryURL is the URL of the customer repository: ssh://, https:// or scp-style git@host:path.
	RepositoryURL string `json:"repository_url,omitempty" format:"git-url" required_when:"enabled"`
	// Branch of the customer repository.
	Branch string `json:"branch,omitempty" format:"git-ref" default:"main"`
	// Interval overrides gitops.flux.interval for the customer units.
	Interval string `json:"interval,omitempty" format:"duration"`
	// SecretName names the Secret in flux-system holding the customer
	// repository's credentials; required for an ssh URL.
	SecretName string `json:"secret_name,omitempty" format:"dns-subdomain" required_when:"emit_secret"`
	// EmitSecret renders that Secret from secrets.overlay_units.customer_managed.
	EmitSecret bool `json:"emit_secret,omitempty"`
	// Kustomizations are the Flux Kustomizations {name, path} applied from the customer repository.
	Kustomizations []CustomerKustomization `json:"kustomizations,omitempty" required_when:"enabled"`
}

// CustomerKustomization is one Flux Kustomization applied from the customer repository.
type CustomerKustomization struct {
	// Name is the DNS-1123 name of the Flux Kustomization.
	Name string `json:"name" format:"dns-label"`
	// Path in the customer repository, starting with "/", such as /apps/prod:
	// segments of letters, digits, '.', '_' and '-', none starting with a dot.
	Path string `json:"path" format:"repo-path"`
	// DependsOn names other customer Kustomizations that must be ready first.
	DependsOn []string `json:"depends_on,omitempty"`
}

// SOPS configures the .sops.yaml of the overlay.
type SOPS struct {
	// Enabled renders .sops.yaml.
	Enabled bool `json:"enabled,omitempty"`
	// Rules are the creation rules {path_regex, age_recipients, encrypted_regex} of the overlay's .sops.yaml, first match wins. None: one rule for every file, path_regex \.yaml$, for the recipients of the config's own .sops.yaml creation rule.
	Rules []SOPSRule `json:"rules,omitempty"`
	// SecretName names the Secret in flux-system holding the age key
	// (age.agekey) that Flux decrypts with; every Flux unit applying secret
	// material references it.
	SecretName string `json:"secret_name,omitempty" format:"dns-label" default:"sops-age"`
}

// SOPSRule is one creation rule of .sops.yaml.
type SOPSRule struct {
	// PathRegex selects the files the rule applies to (a Go regular expression).
	PathRegex string `json:"path_regex"`
	// AgeRecipients are the age public keys (age1...) that can decrypt; none: those of the config's own .sops.yaml creation rule, so the recipients are written in one place.
	AgeRecipients []string `json:"age_recipients,omitempty"`
	// EncryptedRegex selects the keys to encrypt.
	EncryptedRegex string `json:"encrypted_regex,omitempty" default:"^(data|stringData)$"`
}

// ServiceCommon holds the fields every service has.
type ServiceCommon struct {
	// Enabled deploys the service to this cluster.
	Enabled bool `json:"enabled"`
	// Namespace overrides the namespace the service is deployed to; the default is the base repo's. A base that fixes its namespace (a HelmRelease's spec.targetNamespace, or objects that name it) refuses an override.
	Namespace string `json:"namespace,omitempty"`
	// AdoptionMode says how Flux treats the service: managed (rendered, and Flux applies it without force), external (installed and run outside opencenter, such as a CNI the provisioner installed: nothing is rendered, its fields are not required, and what requires it takes it as there), sync (as managed: spec.force false), deferred (rendered suspended, spec.suspend true: Flux applies nothing of it, and what follows it waits) or takeover (spec.force true: Flux deletes and creates again an object whose immutable fields differ, such as one another tool created).
	AdoptionMode AdoptionMode `json:"adoption_mode,omitempty" default:"managed"`
}

// Common returns the fields every service has.
func (s *ServiceCommon) Common() *ServiceCommon { return s }

// AdoptionMode is how Flux treats an enabled service's objects.
type AdoptionMode string

// The adoption modes (the values openCenter-cli's adoption_mode takes).
const (
	// AdoptionManaged renders the service; Flux applies it without force.
	AdoptionManaged AdoptionMode = "managed"
	// AdoptionExternal renders nothing: the service is installed and run
	// outside opencenter, and whatever requires it takes it as there.
	AdoptionExternal AdoptionMode = "external"
	// AdoptionSync renders the service; Flux applies it without force
	// (spec.force false), as managed.
	AdoptionSync AdoptionMode = "sync"
	// AdoptionDeferred renders the service suspended (spec.suspend true).
	AdoptionDeferred AdoptionMode = "deferred"
	// AdoptionTakeover renders the service; Flux applies it with force
	// (spec.force true), recreating objects whose immutable fields differ.
	AdoptionTakeover AdoptionMode = "takeover"
)

// External reports whether the service is enabled and installed outside
// opencenter (adoption_mode external): nothing of it is rendered.
func (s *ServiceCommon) External() bool {
	return s != nil && s.Enabled && s.AdoptionMode == AdoptionExternal
}

// Service is implemented by every service struct through ServiceCommon.
type Service interface {
	Common() *ServiceCommon
}

// Sourced holds the fields of a service deployed from a base directory of
// its own: ServiceCommon's, and the source the directory is fetched from.
type Sourced struct {
	ServiceCommon
	// Source overrides gitops.base_repo for this service.
	Source *SourceOverride `json:"source,omitempty"`
}

// SourceOverride returns the service's source override, nil when it has none.
func (s *Sourced) SourceOverride() *SourceOverride { return s.Source }

// SourcedService is implemented by the service structs that embed Sourced.
type SourcedService interface {
	SourceOverride() *SourceOverride
}

// ProvidedSecrets is implemented by a service struct whose config names
// Secrets outside the repository other than by its *existing_secret
// fields, which the user provides: verify takes references to them as met.
type ProvidedSecrets interface {
	// ProvidedSecrets names them, in the service's namespace.
	ProvidedSecrets() []string
}

// ownOverlay is embedded by the services without a base directory: their
// overlay carries all of their content, so they have no source. It names
// the reason when a config gives one anyway.
type ownOverlay struct{}

// KeyHint explains an unknown key source.
func (ownOverlay) KeyHint(key string) string {
	if key != "source" {
		return ""
	}
	return "the service has no base directory, its overlay carries all of its content: there is no source to override"
}

// observabilityMember is embedded by the services of the observability
// group, which share one source. It names the reason when a config gives
// one of them a source of its own.
type observabilityMember struct{}

// KeyHint explains an unknown key source.
func (observabilityMember) KeyHint(key string) string {
	if key != "source" {
		return ""
	}
	return "the observability group (kube-prometheus-stack, loki, mimir, tempo, opentelemetry-kube-stack) is deployed from one source, opencenter-observability, which one service cannot override; override gitops.base_repo instead"
}
