package config

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/mail"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go/endpoints/private/rulesfn"
	"github.com/google/uuid"
	"github.com/minio/minio-go/v7/pkg/s3utils"
	"github.com/prometheus/common/model"
	"github.com/robfig/cron/v3"
	yamlv2 "go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// consumers read a value of each format where the rendered files take it:
// the Kubernetes API's own validation (names, hostnames), its quantity
// parser (volume sizes, which a claim wants above zero), Go's duration parser (Flux intervals, Tempo),
// Prometheus's (Prometheus, Loki and Mimir retention), the cron parser
// Kubernetes CronJobs and Velero schedules use, and Go's URL and CIDR
// parsers, and net/mail for an ACME account's e-mail. git-url is bounded
// by net/url itself (TestGitURLFormat); repo-path is ours alone.
var consumers = map[string]func(string) error{
	"dns-label":     func(s string) error { return errs(validation.IsDNS1123Label(s)) },
	"dns-subdomain": func(s string) error { return errs(validation.IsDNS1123Subdomain(s)) },
	"wildcard-hostname": func(s string) error {
		if strings.HasPrefix(s, "*.") {
			return errs(validation.IsWildcardDNS1123Subdomain(s))
		}
		return errs(validation.IsDNS1123Subdomain(s))
	},
	"label-key":   func(s string) error { return errs(validation.IsQualifiedName(s)) },
	"label-value": func(s string) error { return errs(validation.IsValidLabelValue(s)) },
	"duration":    func(s string) error { _, err := time.ParseDuration(s); return err },
	"go-duration": func(s string) error { _, err := time.ParseDuration(s); return err },
	// A PersistentVolumeClaim's storage request must be above zero.
	"quantity": func(s string) error {
		q, err := resource.ParseQuantity(s)
		if err == nil && q.Sign() <= 0 {
			err = fmt.Errorf("not above zero")
		}
		return err
	},
	"retention": func(s string) error { _, err := model.ParseDuration(s); return err },
	"cidr":      func(s string) error { _, _, err := net.ParseCIDR(s); return err },
	"cron":      func(s string) error { _, err := cron.ParseStandard(s); return err },
	// An ACME server reads the account's e-mail with net/mail (Let's Encrypt's does).
	"email": func(s string) error {
		a, err := mail.ParseAddress(s)
		if err == nil && a.Address != s {
			err = fmt.Errorf("read as %q", a.Address)
		}
		return err
	},
	// The AWS SDKs build a region's endpoints from it as a host label
	// (cert-manager's Route 53 client, its STS credentials).
	"aws-region": func(s string) error {
		if !rulesfn.IsValidHostLabel(s, false) {
			return fmt.Errorf("not a host label")
		}
		return nil
	},
	// An OpenStack ID is a UUID, which Neutron prints lowercase.
	"uuid": func(s string) error {
		u, err := uuid.Parse(s)
		if err == nil && u.String() != strings.ToLower(s) {
			err = fmt.Errorf("read as %s", u)
		}
		return err
	},
	"url": func(s string) error {
		u, err := url.Parse(s)
		if err == nil && (u.Host == "" || u.Scheme != "http" && u.Scheme != "https") {
			err = fmt.Errorf("scheme %q, host %q", u.Scheme, u.Host)
		}
		return err
	},
}

// shaped make strings of the shape of a format, from parts of it, for the
// formats where strings of random parts rarely pass.
var shaped = map[string]func(r *rand.Rand) string{
	"cidr": func(r *rand.Rand) string {
		if r.IntN(2) == 0 {
			return join(r, 4, ".", "0", "1", "10", "127", "255", "256", "999", "01") + pick(r, "/0", "/8", "/16", "/32", "/33", "/99")
		}
		return join(r, 1+r.IntN(8), ":", "", "0", "1", "ff", "ffff", "fffff", "fd00") + pick(r, "/0", "/64", "/128", "/129", "/999")
	},
	"cron": func(r *rand.Rand) string {
		return join(r, 5, " ", "*", "0", "5", "7", "23", "24", "31", "32", "59", "60", "0-5", "5-0", "*/5", "*/0", "1,2", "?",
			"JAN", "jan", "SUN", "MON-FRI", "FOO", "1-")
	},
	"email": func(r *rand.Rand) string {
		return join(r, 1+r.IntN(3), "", "ops", "a.b", ".", "+tag", "-", "_", "\"", "<", "(", ",", "é", "!", "\\") + "@" +
			join(r, 1+r.IntN(2), ".", "example", "x-y", "-", "", "é") + pick(r, ".com", ".io", ".c")
	},
	// Groups of hex digits, now and then of another length or with another
	// character, joined by '-' or now and then something else, now and then
	// in braces or after urn:uuid:.
	"uuid": func(r *rand.Rand) string {
		var w strings.Builder
		w.WriteString(pick(r, "", "", "", "", "", "", "{", "urn:uuid:"))
		for i, n := range []int{8, 4, 4, 4, 12} {
			if i > 0 {
				w.WriteString(pick(r, "-", "-", "-", "-", "-", "-", "-", "", "_", ":"))
			}
			n += []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 1}[r.IntN(17)]
			for range n {
				w.WriteString(pick(r, "0", "1", "9", "a", "b", "f", "A", "F"))
			}
			if r.IntN(30) == 0 {
				w.WriteString(pick(r, "g", "é", " "))
			}
		}
		w.WriteString(pick(r, "", "", "", "", "", "", "}", " "))
		return w.String()
	},
	"url": func(r *rand.Rand) string {
		return pick(r, "http://", "https://") + pick(r, "a", "a.b", "-", "a-b.c", "1.2.3.4") + pick(r, "", ":80", ":8080", ":99999", ":0") +
			pick(r, "", "/", "/p", "/%zz", "/%41", "/a?b=c", "/[", "/#f", "/a%", "/%2")
	},
}

func pick(r *rand.Rand, from ...string) string { return from[r.IntN(len(from))] }

// join joins n strings picked from from with sep.
func join(r *rand.Rand, n int, sep string, from ...string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pick(r, from...)
	}
	return strings.Join(parts, sep)
}

func errs(list []string) error {
	if len(list) > 0 {
		return fmt.Errorf("%s", strings.Join(list, "; "))
	}
	return nil
}

// TestFormatsAcceptWhatConsumersRead: a value that passes its format's
// check is one its consumer reads. Each format is tried on edge cases and
// on random strings made of its own parts, so that many pass.
func TestFormatsAcceptWhatConsumersRead(t *testing.T) {
	parts := map[string][]string{
		"dns-label":         {"a", "z", "0", "9", "-", "ab", strings.Repeat("a", 30)},
		"dns-subdomain":     {"a", "0", "-", ".", "ab", strings.Repeat("a", 40), strings.Repeat("b", 63)},
		"wildcard-hostname": {"*.", "a", "0", "-", ".", strings.Repeat("a", 40), strings.Repeat("b", 63)},
		"duration":          {"0", "1", "9", "99999", ".", ".5", "ms", "s", "m", "h"},
		"go-duration":       goDurationParts,
		"quantity":          {"0", "1", "9", "99999", ".", ".5", "Ki", "Gi", "Ei", "k", "M", "E"},
		"retention":         {"0", "1", "9", "99999", "ms", "s", "m", "h", "d", "w", "y"},
		"label-key":         {"a", "Z", "0", "-", "_", ".", "/", "a/", "example.com/", strings.Repeat("a", 40), strings.Repeat("b.", 70)},
		"label-value":       {"a", "Z", "0", "-", "_", ".", "/", strings.Repeat("a", 30)},
		"aws-region":        {"us", "east", "1", "-", ".", "a", "Z", "0", "_", strings.Repeat("a", 30)},
	}
	edge := map[string][]string{
		"dns-label":         {strings.Repeat("a", 63), strings.Repeat("a", 64)},
		"dns-subdomain":     {strings.Repeat("a.", 126) + "a", strings.Repeat("a.", 127) + "a", strings.Repeat("a", 64)},
		"wildcard-hostname": {"*.a", "*." + strings.Repeat("a", 64), "*." + strings.Repeat("a.", 126) + "a"},
		"duration":          {"9223372036854775807ns", "2562048h", "2562047h", "99999999999h", "1h1h", "1m1h"},
		"go-duration":       {"0", "720h", "9223372036854775807ns", "9223372036854775808ns", "2562048h", "1.h", ".5h", "1\u00b5s", "1\u03bcs"},
		"quantity":          {"99999999999999999999999999Ei", "0.000000001", "1.5Ki", "00"},
		"retention":         {"0", "15d", "1d1y", "1h1h", "1y1d", "999999999999y", "292y", "293y"},
		"cidr":              {"10.244.0.0/16", "256.0.0.0/8", "10.0.0.0/33", "::/0", "fd00::/129", ":::::/64", "1:2:3:4:5:6:7:8:9/64"},
		"cron":              {"0 2 * * *", "0 0 L * *", "0 0 ? * MON", "99 99 99 99 99", "0 0 1W * *", "0 0 * * 1#2", "60 * * * *"},
		"url":               {"http://a", "https://a:99999/", "http://a/%zz", "http://a/b c"},
		"label-key": {strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 126) + "a/" + strings.Repeat("b", 63),
			strings.Repeat("a.", 127) + "a/b", "a/" + strings.Repeat("b", 64), "/a", "a/b/c", "A/b"},
		"label-value": {strings.Repeat("a", 63), strings.Repeat("a", 64)},
		"aws-region":  {"us-east-1", "us-gov-west-1", strings.Repeat("a", 63), strings.Repeat("a", 64)},
		"uuid":        {"6513270e-269e-4d37-b2a7-4de452e6b438", "6513270E-269E-4D37-B2A7-4DE452E6B438", "{6513270e-269e-4d37-b2a7-4de452e6b438}", "6513270e269e4d37b2a74de452e6b438"},
	}
	r := rand.New(rand.NewPCG(7, 8))
	for f, read := range consumers {
		if _, ok := Formats[f]; !ok {
			t.Fatalf("no format %q", f)
		}
		passed := 0
		check := func(s string) {
			if !MatchFormat(f, s) {
				return
			}
			passed++
			if err := read(s); err != nil {
				t.Errorf("%s: %.80q passes the format check, but its consumer refuses it: %v", f, s, err)
			}
		}
		for _, s := range edge[f] {
			check(s)
		}
		for range 20_000 {
			if gen, ok := shaped[f]; ok {
				check(gen(r))
				continue
			}
			var w strings.Builder
			for range 1 + r.IntN(8) {
				w.WriteString(parts[f][r.IntN(len(parts[f]))])
			}
			check(w.String())
		}
		if passed < 200 {
			t.Errorf("%s: only %d strings pass the format check: the test sees too few", f, passed)
		}
	}
}

// TestMetalLBAddressesAcceptWhatMetalLBReads: an address pool entry that
// passes addressRange is one MetalLB's config parser reads. It reads a range
// as two addresses around a '-', each with net.ParseIP after trimming
// blanks, and anything else with net.ParseCIDR.
func TestMetalLBAddressesAcceptWhatMetalLBReads(t *testing.T) {
	metallb := func(a string) error {
		if from, to, ok := strings.Cut(a, "-"); ok {
			if net.ParseIP(strings.TrimSpace(from)) == nil || net.ParseIP(strings.TrimSpace(to)) == nil {
				return fmt.Errorf("not two IP addresses")
			}
			return nil
		}
		_, _, err := net.ParseCIDR(a)
		return err
	}
	r := rand.New(rand.NewPCG(9, 10))
	addr := func() string {
		return pick(r, "10.0.0.1", "10.0.0.20", "0.0.0.0", "255.255.255.255", "256.1.1.1", "::1", "fe80::1", "fe80::1%eth0",
			"::ffff:10.0.0.1", "2001:db8::", "010.0.0.1", " 10.0.0.2", "10.0.0.3 ")
	}
	passed := 0
	for range 20_000 {
		a := addr() + pick(r, "", "/24", "/32", "/33", "/64", "/128")
		if r.IntN(2) == 0 {
			a = addr() + pick(r, "-", " - ", "--") + addr()
		}
		if addressRange(a) != "" {
			continue
		}
		passed++
		if err := metallb(a); err != nil {
			t.Errorf("%q passes addressRange, but MetalLB refuses it: %v", a, err)
		}
	}
	if passed < 200 {
		t.Errorf("only %d addresses pass: the test sees too few", passed)
	}
}

// TestGitRefFormatAcceptsWhatGitAccepts: a branch or tag name that passes
// the git-ref format is one Git accepts as refs/heads/<name> (git
// check-ref-format, the rules every Git server holds its refs to), so a
// remote can have it; and the format refuses only what Git refuses, a
// leading '-' (which git branch takes for an option) and "@" (HEAD).
func TestGitRefFormatAcceptsWhatGitAccepts(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	parts := []string{"a", "main", "v1", "2026.01", "/", ".", "..", "-", "@", "{", "@{", ".lock", "lock", " ", "~", "^", ":", "?", "*", "[", `\`, "é", "_", "+", "\t", "#"}
	values := []string{"main", "release/2026.01", "a/b.lock/c", "a.lock", ".a", "a/.b", "a.", "a/", "/a", "a//b", "@", "a@{b", "a..b", "-a", "é"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 700 {
		values = append(values, join(r, 1+r.IntN(5), "", parts...))
	}
	passed := 0
	for _, s := range values {
		ok := MatchFormat("git-ref", s)
		gitOK := exec.Command(git, "check-ref-format", "refs/heads/"+s).Run() == nil
		switch {
		case ok && !gitOK:
			t.Errorf("%q passes the git-ref format, but Git refuses the branch name", s)
		case !ok && gitOK && !strings.HasPrefix(s, "-") && s != "@":
			t.Errorf("%q fails the git-ref format, but Git accepts the branch name", s)
		}
		if ok {
			passed++
		}
	}
	if passed < 100 {
		t.Errorf("only %d names pass the format: the test sees too few", passed)
	}
}

// goDurationParts are what the strings of TestGoDurationFormatIsGosDuration
// and TestFormatsAcceptWhatConsumersRead are made of.
var goDurationParts = []string{"0", "1", "9", "99999", ".", ".5", "ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h", "-", "+", "d", " "}

// TestGoDurationFormatIsGosDuration: the go-duration format accepts
// exactly what Go's time.ParseDuration reads, the parser of Velero's
// Schedule ttl and of the sealed-secrets controller's --key-renew-period,
// except a sign (no period is negative).
func TestGoDurationFormatIsGosDuration(t *testing.T) {
	tryStrings(t, 11, 50_000, 5, 1000, goDurationParts, func(s string) bool {
		_, err := time.ParseDuration(s)
		goOK := err == nil && !strings.ContainsAny(s, "+-")
		if ok := MatchFormat("go-duration", s); ok != goOK {
			t.Errorf("%q: the go-duration format says %v, Go's parser %v (%v)", s, ok, goOK, err)
		}
		return goOK
	})
}

// tryStrings makes n strings of one to most parts each, from a seeded
// source, and gives each to check, which tests it and says whether it
// passes the rule under test; fewer than min passing fails t, as a test
// that sees too few.
func tryStrings(t *testing.T, seed uint64, n, most, min int, parts []string, check func(s string) bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	passed := 0
	for range n {
		if check(join(r, 1+r.IntN(most), "", parts...)) {
			passed++
		}
	}
	if passed < min {
		t.Errorf("only %d of %d strings pass the rule: the test sees too few", passed, n)
	}
}

// botocoreBucket is what the AWS CLI (botocore's VALID_BUCKET, in
// botocore/handlers.py) takes as a bucket name: etcd-backup uploads with
// it.
var botocoreBucket = regexp.MustCompile(`^[a-zA-Z0-9.\-_]{1,255}$`)

// TestS3BucketFormatIsWhatS3ClientsRead: an s3-bucket name is one every S3
// client of the services takes: minio-go (Tempo, Mimir), which refuses a
// name outside its rules before sending a request, and the AWS CLI
// (etcd-backup); and every name minio-go's strict rules, AWS's rules for a
// new bucket, accept passes.
func TestS3BucketFormatIsWhatS3ClientsRead(t *testing.T) {
	parts := []string{"a", "Z", "0", "9", "backups", ".", "-", "_", ":", ",", "/", " ", "{{", "$", "..", "1.2.3.4", "é", strings.Repeat("b", 30)}
	tryStrings(t, 13, 50_000, 6, 1000, parts, func(s string) bool {
		ok := MatchFormat("s3-bucket", s)
		if ok {
			if err := s3utils.CheckValidBucketName(s); err != nil {
				t.Errorf("%q passes the s3-bucket format, but minio-go refuses it: %v", s, err)
			}
			if !botocoreBucket.MatchString(s) {
				t.Errorf("%q passes the s3-bucket format, but the AWS CLI refuses it", s)
			}
		}
		if s3utils.CheckValidBucketNameStrict(s) == nil && !ok {
			t.Errorf("%q fails the s3-bucket format, but is a bucket name by AWS's rules (minio-go's strict check)", s)
		}
		return ok
	})
}

// TestPlainYAML11ReadsBack: a value PlainYAML11 passes, written unquoted
// after a key as a chart writes it, is read back by yaml.v2 (the YAML 1.1
// reader of Helm's fromYaml and of the Harbor registry's config) as the
// same string, whatever parts it is made of; and the values such fields
// hold in practice pass.
func TestPlainYAML11ReadsBack(t *testing.T) {
	parts := []string{"a", "Z", "e", "x", "o", "b", "0", "1", "9", "07", "0x", "0o", "0b", "_", ".", "-", "+", ":", ": ", " ", " #", "#",
		"yes", "no", "on", "off", "y", "n", "true", "null", "~", "inf", "nan", ".inf", "[", "]", "{", "}", ",", "&", "*", "!", "|", ">",
		"'", "\"", "%", "@", "`", "?", "\t", "\n", "\u2028", "\u0085", "\ufeff", "é", "2026-01-02", "s3.example.com:9000"}
	tryStrings(t, 15, 50_000, 4, 1000, parts, func(s string) bool {
		if !PlainYAML11(s) {
			return false
		}
		var got map[string]any
		if err := yamlv2.Unmarshal([]byte("k: "+s+"\n"), &got); err != nil {
			t.Errorf("%q passes PlainYAML11, but yaml.v2 cannot read it: %v", s, err)
		} else if got["k"] != s {
			t.Errorf("%q passes PlainYAML11, but yaml.v2 reads it as %#v", s, got["k"])
		}
		return true
	})
	for _, s := range []string{"us-east-1", "RegionOne", "default", "harbor-images", "registry", "svc.harbor@corp", "Default",
		"https://keystone.example.com:5000/v3", "s3.example.com:9000", "0777-logs", "deadbeef"} {
		if !PlainYAML11(s) {
			t.Errorf("%q fails PlainYAML11", s)
		}
	}
}

// TestHostFormatIsWhereVSphereConnects: a host that passes the host format
// is where the vSphere CSI driver (v3.5.0) connects. It puts the host and
// port together with net.JoinHostPort and gives that to govmomi's
// soap.ParseURL, which adds https:// and reads it with net/url: the URL's
// host and port must be the host and the port, with no user, path, query
// or fragment ('/', '?', '#' or '@' in a host would move the connection or
// lose the port). Names and addresses such hosts have in practice pass.
func TestHostFormatIsWhereVSphereConnects(t *testing.T) {
	parts := []string{"a", "Z", "0", "9", "vc", "-", ".", ":", "::", "fd00", "1", "255", "256", "/", "?", "#", "@", " ", "[", "]", "%", "é", "_", strings.Repeat("a", 63)}
	tryStrings(t, 17, 50_000, 6, 1000, parts, func(s string) bool {
		if !MatchFormat("host", s) {
			return false
		}
		u, err := url.Parse("https://" + net.JoinHostPort(s, "443"))
		if err != nil {
			t.Errorf("%q passes the host format, but the driver's URL does not parse: %v", s, err)
		} else if u.Hostname() != s || u.Port() != "443" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
			t.Errorf("%q passes the host format, but the driver would connect to host %q port %q (path %q, query %q)", s, u.Hostname(), u.Port(), u.Path, u.RawQuery)
		}
		return true
	})
	for _, s := range []string{"vcenter.example.com", "VC01.corp.example", "10.0.0.5", "fd00::5", "::1", "vc-1"} {
		if !MatchFormat("host", s) {
			t.Errorf("%q fails the host format", s)
		}
	}
}

// TestAWSRegionIsAHostLabel: a region s3HostRegion lets through on AWS S3
// is one the AWS SDKs' S3 endpoint rules take (isValidHostLabel(Region,
// false), smithy-go's rulesfn; Velero's AWS plugin runs them).
func TestAWSRegionIsAHostLabel(t *testing.T) {
	parts := []string{"us", "east", "1", "-", ".", "a", "Z", "0", "?", "#", "/", " ", "_", "é", strings.Repeat("a", 63)}
	tryStrings(t, 19, 20_000, 5, 500, parts, func(s string) bool {
		v := NewValidator(&File{Name: "c.yaml"})
		v.s3HostRegion("p", "S", StorageS3, "", s)
		if len(v.diags) > 0 {
			return false
		}
		if !rulesfn.IsValidHostLabel(s, false) {
			t.Errorf("%q passes as an AWS region, but the AWS SDKs' S3 endpoint rules refuse it", s)
		}
		return true
	})
}
