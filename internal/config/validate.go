package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

var (
	ageRecipient = regexp.MustCompile(`^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$`)
	configName   = regexp.MustCompile(`^\.(.+)-config\.yaml$`)
)

// Validator collects validation diagnostics for one file; service types use
// it from their Validate methods.
type Validator struct {
	f     *File
	diags diag.List
}

// NewValidator returns a validator reporting against f.
func NewValidator(f *File) *Validator { return &Validator{f: f} }

// Errorf records a problem at YAML path p.
func (v *Validator) Errorf(p, format string, args ...any) {
	v.diags = append(v.diags, v.f.Diag(p, format, args...))
}

// ErrorfMissing records that the key at YAML path p is missing: placed at
// p's mapping when the file has it (where the key goes), else at path cause,
// the key that made p required.
func (v *Validator) ErrorfMissing(cause, p, format string, args ...any) {
	parent := p[:max(strings.LastIndex(p, "."), 0)]
	if v.f.Has(p) || cause == "" || (parent != "" && v.f.Has(parent)) {
		v.Errorf(p, format, args...)
		return
	}
	v.diags = append(v.diags, v.f.DiagAt(cause, p, format, args...))
}

// reported reports whether a problem is reported at YAML path p.
func (v *Validator) reported(p string) bool {
	return slices.ContainsFunc(v.diags, func(d diag.Diag) bool { return d.Path == p })
}

// Diags returns what was recorded.
func (v *Validator) Diags() diag.List { return v.diags }

// Required records an error when s is empty.
func (v *Validator) Required(p, s, what string) bool {
	if s == "" {
		v.Errorf(p, "required: %s", what)
		return false
	}
	return true
}

// IsDNSLabel reports whether s is a DNS-1123 label: at most 63 lowercase
// letters, digits or '-', starting and ending with a letter or digit. The
// generator, the CLI and validation all ask this one function.
func IsDNSLabel(s string) bool { return len(s) <= maxDNSLabel && dnsLabel(s) }

// IsDNSSubdomain reports whether s is a DNS-1123 subdomain, the form of
// most Kubernetes names: DNS labels joined by '.', at most 253 in all.
func IsDNSSubdomain(s string) bool { return len(s) <= maxDNSSubdomain && dnsSubdomain(s) }

// DNSLabel checks a DNS-1123 label (lowercase alphanumerics and '-', at most 63).
func (v *Validator) DNSLabel(p, s string) { v.DNSLabelAt(p, "", s) }

// DNSLabelAt is DNSLabel for the key of the mapping at p (p itself for
// ""): the key's path is made only for a report, for checks that run for
// every unit of every config loaded.
func (v *Validator) DNSLabelAt(p, key, s string) {
	if s == "" || IsDNSLabel(s) {
		return
	}
	if key != "" {
		p += "." + key
	}
	v.Errorf(p, "%q is not %s", s, FormatDocs["dns-label"])
}

// RepoURL checks a Git URL: ssh://, https:// or scp-style git@host:path.
func (v *Validator) RepoURL(p, s string) {
	if s == "" || MatchFormat("git-url", s) {
		return
	}
	v.Errorf(p, "%q is not %s", s, FormatDocs["git-url"])
}

// Duration checks a Flux duration such as 15m or 1h30m.
func (v *Validator) Duration(p, s string) {
	if s != "" && !MatchFormat("duration", s) {
		v.Errorf(p, "%q is not a duration: expected a number and unit ms, s, m or h, such as 10m or 1h30m", s)
	}
}

// validate checks the rules of the config contract on a config whose
// defaults have been applied.
func validate(v *Validator) {
	f := v.f
	c := f.Config
	oc := &c.OpenCenter

	if c.SchemaVersion != 1 {
		v.Errorf("schema_version", "unsupported schema_version %d: expected 1", c.SchemaVersion)
	}
	if v.Required("opencenter.meta.name", oc.Meta.Name, "meta.name names this deployment") {
		v.DNSLabel("opencenter.meta.name", oc.Meta.Name)
	}
	const cn = "opencenter.cluster.cluster_name"
	if v.Required(cn, oc.Cluster.ClusterName, "cluster.cluster_name names the overlay directory") {
		v.DNSLabel(cn, oc.Cluster.ClusterName)
		if m := configName.FindStringSubmatch(filepath.Base(f.Name)); m != nil && m[1] != oc.Cluster.ClusterName {
			v.Errorf(cn, "%q does not match the file name %s: expected %q (or rename the file to .%s-config.yaml)",
				oc.Cluster.ClusterName, filepath.Base(f.Name), m[1], oc.Cluster.ClusterName)
		}
	}
	for _, k := range [...]string{LabelPartOf, LabelManagedBy, LabelOpenCenter} {
		if _, set := oc.Meta.Labels[k]; set {
			v.Errorf("opencenter.meta.labels."+k, "label %s is set by opencenter on every Flux object: remove it (or choose another key)", k)
		}
	}
	if oc.Infrastructure.Provider == "" { // an unknown value is reported with every other enumeration
		v.Errorf("opencenter.infrastructure.provider", "required: one of openstack, vmware, baremetal, kind")
	}

	g := &oc.GitOps
	if v.Required("opencenter.gitops.repository.url", g.Repository.URL, "the URL of the cluster's GitOps repository") {
		v.RepoURL("opencenter.gitops.repository.url", g.Repository.URL)
	}
	v.RepoURL("opencenter.gitops.base_repo.url", g.BaseRepo.URL)
	v.SSHIdentity("opencenter.gitops.base_repo.url", g.BaseRepo.URL, g.BaseRepo.SecretName, "opencenter.gitops.base_repo.secret_name")
	v.Duration("opencenter.gitops.flux.interval", g.Flux.Interval)
	v.Duration("opencenter.gitops.flux.retry_interval", g.Flux.RetryInterval)
	v.Duration("opencenter.gitops.flux.timeout", g.Flux.Timeout)

	validateCustomerManaged(v, c)
	validateSOPS(v, &g.OverlayUnits.SOPS)
}

// SourceOverride checks the source override s of the service at path p
// (its source key), if it has one. Its credentials are
// base_repo.secret_name's.
func (v *Validator) SourceOverride(p string, s *SourceOverride) {
	if s != nil {
		p += ".source.repo"
		v.RepoURL(p, s.Repo)
		b := &v.f.Config.OpenCenter.GitOps.BaseRepo
		v.SSHIdentity(p, s.Repo, b.SecretName, "opencenter.gitops.base_repo.secret_name")
	}
}

// IsSSH reports whether a Git URL is fetched over ssh (ssh:// or scp-style).
func IsSSH(url string) bool {
	return strings.HasPrefix(url, "ssh://") || (MatchFormat("git-url", url) && !strings.HasPrefix(url, "https://"))
}

// SSHIdentity reports an ssh URL at p whose GitRepository would have no
// secretRef: Flux has no anonymous ssh, so it would never fetch.
func (v *Validator) SSHIdentity(p, url, secret, secretPath string) {
	if secret == "" && IsSSH(url) {
		v.Errorf(p, "%q is an ssh URL but %s is empty: Flux has no anonymous ssh; set it to a Secret in flux-system holding identity and known_hosts, or use an https URL", url, secretPath)
	}
}

func validateCustomerManaged(v *Validator, c *Config) {
	const p = "opencenter.gitops.overlay_units.customer_managed"
	cm := &c.OpenCenter.GitOps.OverlayUnits.CustomerManaged
	if !cm.Enabled {
		return
	}
	// repository_name, repository_url and kustomizations are required by their tags.
	v.DNSLabel(p+".repository_name", cm.RepositoryName)
	if cm.RepositoryURL != "" {
		v.RepoURL(p+".repository_url", cm.RepositoryURL)
		v.SSHIdentity(p+".repository_url", cm.RepositoryURL, cm.SecretName, p+".secret_name")
	}
	v.Duration(p+".interval", cm.Interval)
	names := map[string]bool{}
	for i, k := range cm.Kustomizations {
		kp := fmt.Sprintf("%s.kustomizations[%d]", p, i)
		if v.Required(kp+".name", k.Name, "the name of the Flux Kustomization") {
			v.DNSLabel(kp+".name", k.Name)
			if names[k.Name] {
				v.Errorf(kp+".name", "duplicate kustomization name %q", k.Name)
			}
			names[k.Name] = true
		}
		if v.Required(kp+".path", k.Path, "the path in the customer repository, starting with /") {
			switch {
			case !strings.HasPrefix(k.Path, "/"):
				v.Errorf(kp+".path", "%q must start with \"/\" (a path from the root of the customer repository)", k.Path)
			case !MatchFormat("repo-path", k.Path):
				v.Errorf(kp+".path", "%q is not a clean path inside the customer repository: expected /dir/dir, segments of letters, digits, '.', '_' or '-' not starting with a dot (no .., no //, no trailing /)", k.Path)
			}
		}
	}
	for i, k := range cm.Kustomizations {
		for j, d := range k.DependsOn {
			if !names[d] {
				v.Errorf(fmt.Sprintf("%s.kustomizations[%d].depends_on[%d]", p, i, j),
					"%q is not a kustomization of customer_managed%s", d, diag.Suggest(d, slices.Sorted(maps.Keys(names))))
			}
		}
	}
}

func validateSOPS(v *Validator, s *SOPS) {
	const p = "opencenter.gitops.overlay_units.sops"
	if !s.Enabled {
		return
	}
	for i, r := range s.Rules {
		rp := fmt.Sprintf("%s.rules[%d]", p, i)
		if v.Required(rp+".path_regex", r.PathRegex, "a regular expression selecting the files to encrypt") {
			if _, err := sops.Pattern(r.PathRegex); err != nil {
				v.Errorf(rp+".path_regex", "does not compile: %v", err)
			}
		}
		if r.EncryptedRegex != "" {
			if _, err := sops.Pattern(r.EncryptedRegex); err != nil {
				v.Errorf(rp+".encrypted_regex", "does not compile: %v", err)
			}
		}
		for j, a := range r.AgeRecipients {
			if !ageRecipient.MatchString(a) {
				v.Errorf(fmt.Sprintf("%s.age_recipients[%d]", rp, j), "%q is not an age public key: expected age1 followed by 58 bech32 characters", a)
			} else if _, err := sops.ParseRecipient(a); err != nil {
				v.Errorf(fmt.Sprintf("%s.age_recipients[%d]", rp, j), "%q is not an age public key: its checksum is wrong (a typo?)", a)
			}
		}
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
