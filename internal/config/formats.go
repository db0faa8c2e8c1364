package config

import (
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/robfig/cron/v3"
)

// MatchFormat reports whether s is of the format (a key of Formats): of
// its pattern's syntax, and within the bounds its consumer adds, which a
// pattern cannot say (lengths, ranges, a prefix that fits its address).
// The formats most fields use are matched by hand, byte by byte, a tenth
// of a regular expression's cost on every config loaded; the others by
// their pattern. TestMatchFormatMatchesPatterns holds each hand-written
// matcher to its pattern, and TestFormatsAcceptWhatConsumersRead every
// format to the parser its values meet.
func MatchFormat(format, s string) bool {
	if !matchSyntax(format, s) {
		return false
	}
	if n, ok := FormatMaxLength[format]; ok && len(s) > n {
		return false
	}
	bound, ok := bounds[format]
	return !ok || bound(s)
}

// remembered is bound with its answers remembered in boundsSeen, for the
// bounds that run a consumer's parser, which allocates (cron's some thirty
// times a schedule).
func remembered(format string, bound func(string) bool) func(string) bool {
	return func(s string) bool { return boundsSeen.of(format, s, bound) }
}

// boundsSeen remembers what the parsers said of the values they were given:
// a fleet's configs repeat the same URLs and schedules, and a config checks
// its repository URL more than once.
var boundsSeen = seenBounds{ok: map[seenKey]bool{}}

type seenKey struct{ format, value string }

type seenBounds struct {
	sync.RWMutex
	ok map[seenKey]bool
}

// of returns bound(s), asking bound only the first time.
func (b *seenBounds) of(format, s string, bound func(string) bool) bool {
	b.RLock()
	ok, seen := b.ok[seenKey{format, s}]
	b.RUnlock()
	if seen {
		return ok
	}
	ok = bound(s)
	b.Lock()
	if len(b.ok) < 4096 {
		b.ok[seenKey{format, strings.Clone(s)}] = ok
	}
	b.Unlock()
	return ok
}

// matchSyntax reports whether s matches the format's pattern.
func matchSyntax(format, s string) bool {
	if match, ok := handMatched[format]; ok {
		return match(s)
	}
	re, ok := formatPatterns[format]
	return ok && re.MatchString(s)
}

// FormatMaxLength bounds the length of the formats whose consumers bound
// it: Kubernetes names and hostnames. The JSON Schema carries it.
var FormatMaxLength = map[string]int{
	"dns-label": maxDNSLabel, "dns-subdomain": maxDNSSubdomain, "wildcard-hostname": maxDNSSubdomain,
	"label-key": maxDNSSubdomain + 1 + maxDNSLabel, "label-value": maxDNSLabel, "aws-region": maxDNSLabel,
}

// maxDNSLabel bounds a DNS label: a Kubernetes name of that format, each
// label of a hostname, and a label's value and the name part of its key.
const maxDNSLabel = 63

// maxDNSSubdomain bounds a DNS subdomain: a Kubernetes name of that
// format, a hostname, and a label key's prefix.
const maxDNSSubdomain = 253

// bounds are what a format's consumer requires beyond the syntax.
var bounds = map[string]func(string) bool{
	// Each label of a hostname is a DNS label (Kubernetes names do not ask
	// it of the labels of a subdomain).
	"wildcard-hostname": func(s string) bool {
		for l := range strings.SplitSeq(strings.TrimPrefix(s, "*."), ".") {
			if len(l) > maxDNSLabel {
				return false
			}
		}
		return true
	},
	// Git's rules for a ref name (git check-ref-format) beyond its
	// characters: a remote holds no branch or tag that breaks them.
	"git-ref": func(s string) bool {
		if s == "@" || strings.HasSuffix(s, ".") || strings.Contains(s, "..") || strings.Contains(s, "@{") {
			return false
		}
		for c := range strings.SplitSeq(s, "/") {
			if c == "" || c[0] == '.' || strings.HasSuffix(c, ".lock") {
				return false
			}
		}
		return true
	},
	// A label key's prefix and name are bounded each on its own.
	"label-key": func(s string) bool {
		prefix, name, ok := strings.Cut(s, "/")
		if !ok {
			return len(s) <= maxDNSLabel
		}
		return len(prefix) <= maxDNSSubdomain && len(name) <= maxDNSLabel
	},
	// Flux and Tempo read durations with Go's parser: at most 2562047h.
	"duration": goDuration,
	// Velero (a Schedule's ttl) and the sealed-secrets controller
	// (--key-renew-period) read these with Go's parser too.
	"go-duration": goDuration,
	// An IPv6 address, or a DNS name within DNS's bounds.
	"host": func(s string) bool {
		if strings.Contains(s, ":") {
			return net.ParseIP(s) != nil
		}
		if len(s) > maxDNSSubdomain {
			return false
		}
		for l := range strings.SplitSeq(s, ".") {
			if len(l) > maxDNSLabel {
				return false
			}
		}
		return true
	},
	// minio-go (Tempo, Mimir) refuses these in a bucket name, and AWS S3
	// names no bucket so.
	"s3-bucket": func(s string) bool {
		return !strings.Contains(s, "..") && !strings.Contains(s, ".-") && !strings.Contains(s, "-.") && !dottedQuad(s)
	},
	"retention": retentionFits,
	// Every quantity is a volume's size, which Kubernetes wants above zero.
	"quantity": func(s string) bool { return strings.ContainsAny(s, "123456789") },
	"cidr":     remembered("cidr", func(s string) bool { _, _, err := net.ParseCIDR(s); return err == nil }),
	// Kubernetes (CronJob) and Velero read schedules with robfig/cron.
	"cron": remembered("cron", func(s string) bool { _, err := cron.ParseStandard(s); return err == nil }),
	"url":  remembered("url", func(s string) bool { _, err := url.Parse(s); return err == nil }),
	// An ACME server reads an account's e-mail with net/mail.
	"email": remembered("email", func(s string) bool { a, err := mail.ParseAddress(s); return err == nil && a.Address == s }),
	// Flux's source-controller reads the URL FluxURL makes with url.Parse.
	"git-url": remembered("git-url", func(s string) bool {
		u, err := url.Parse(FluxURL(s))
		return err == nil && u.Hostname() != "" && !strings.ContainsFunc(s, unicode.IsSpace)
	}),
}

func goDuration(s string) bool { _, err := time.ParseDuration(s); return err == nil }

// dottedQuad reports whether s has the shape of an IPv4 address: four runs
// of digits joined by '.'.
func dottedQuad(s string) bool {
	parts := 0
	for p := range strings.SplitSeq(s, ".") {
		if p == "" || digits(p) != len(p) {
			return false
		}
		parts++
	}
	return parts == 4
}

var scpLike = regexp.MustCompile(`^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):([^/].*)$`)

// FluxURL turns an scp-style Git address (git@host:org/repo.git), which the
// config accepts, into the ssh:// URL Flux requires (ssh://git@host/org/repo.git).
func FluxURL(u string) string {
	if m := scpLike.FindStringSubmatch(u); m != nil {
		return "ssh://" + m[1] + "@" + m[2] + "/" + m[3]
	}
	return u
}

// retentionUnits are the units of a retention period, largest first, in
// nanoseconds (Prometheus's duration type is Go's).
var retentionUnits = [...]struct {
	name string
	ns   uint64
}{
	{"y", 365 * 24 * uint64(time.Hour)}, {"w", 7 * 24 * uint64(time.Hour)}, {"d", 24 * uint64(time.Hour)},
	{"h", uint64(time.Hour)}, {"m", uint64(time.Minute)}, {"s", uint64(time.Second)}, {"ms", uint64(time.Millisecond)},
}

// retentionUnit returns the index in retentionUnits of the unit s starts
// with, -1 for none.
func retentionUnit(s string) int {
	if strings.HasPrefix(s, "ms") {
		return len(retentionUnits) - 1
	}
	for i, u := range retentionUnits[:len(retentionUnits)-1] {
		if strings.HasPrefix(s, u.name) {
			return i
		}
	}
	return -1
}

// retentionFits reports whether a retention period (of PatternRetention)
// fits Prometheus's duration, as its parser requires: at most 1<<63-1ns,
// about 292y.
func retentionFits(s string) bool {
	var total uint64
	for s != "" && s != "0" {
		n := digits(s)
		v, err := strconv.ParseUint(s[:n], 10, 64)
		u := retentionUnit(s[n:])
		if err != nil || u < 0 || v > 1<<63/retentionUnits[u].ns {
			return false
		}
		total += v * retentionUnits[u].ns
		if total > 1<<63-1 {
			return false
		}
		s = s[n+len(retentionUnits[u].name):]
	}
	return true
}

// handMatched are the formats matched byte by byte.
var handMatched = map[string]func(string) bool{
	"dns-label":         dnsLabel,
	"aws-region":        dnsLabel,
	"dns-subdomain":     dnsSubdomain,
	"wildcard-hostname": func(s string) bool { return dnsSubdomain(strings.TrimPrefix(s, "*.")) },
	"quantity":          quantity,
	"duration":          func(s string) bool { return unitNumbers(s, true, "ms", "s", "m", "h") },
	"retention":         retention,
}

// formatPatterns are the compiled Formats that are not hand-matched.
var formatPatterns = func() map[string]*regexp.Regexp {
	m := make(map[string]*regexp.Regexp, len(Formats))
	for k, p := range Formats {
		if _, ok := handMatched[k]; !ok {
			m[k] = regexp.MustCompile(p)
		}
	}
	return m
}()

// dnsLabel is PatternDNSLabel: lowercase letters, digits and '-', not
// starting or ending with '-'.
func dnsLabel(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// dnsSubdomain is PatternDNSSubdomain: dns labels joined by '.'.
func dnsSubdomain(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !dnsLabel(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// digits returns the length of the run of ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// quantity is PatternQuantity: digits, an optional fraction, an optional
// suffix.
func quantity(s string) bool {
	n := digits(s)
	if n == 0 {
		return false
	}
	s = s[n:]
	if strings.HasPrefix(s, ".") {
		f := digits(s[1:])
		if f == 0 {
			return false
		}
		s = s[1+f:]
	}
	switch s {
	case "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "k", "M", "G", "T", "P", "E":
		return true
	}
	return false
}

// unitNumbers is PatternDuration: one or more numbers, with fractions if
// allowed, each followed by one of units; a unit that is a prefix of
// another (m of ms) is tried after it.
func unitNumbers(s string, fractions bool, units ...string) bool {
	if s == "" {
		return false
	}
	for s != "" {
		n := digits(s)
		if n == 0 {
			return false
		}
		s = s[n:]
		if fractions && strings.HasPrefix(s, ".") {
			f := digits(s[1:])
			if f == 0 {
				return false
			}
			s = s[1+f:]
		}
		unit := ""
		for _, u := range units {
			if strings.HasPrefix(s, u) {
				unit = u
				break
			}
		}
		if unit == "" {
			return false
		}
		s = s[len(unit):]
	}
	return true
}

// retention is PatternRetention: "0", or numbers each followed by a unit of
// retentionUnits, larger units before smaller ones and each at most once.
func retention(s string) bool {
	if s == "0" {
		return true
	}
	next := 0 // the index of the largest unit still allowed
	for s != "" {
		n := digits(s)
		if n == 0 {
			return false
		}
		u := retentionUnit(s[n:])
		if u < next {
			return false // none, or out of order
		}
		next = u + 1
		s = s[n+len(retentionUnits[u].name):]
	}
	return next > 0
}

// yaml11Words are the plain scalars a YAML 1.1 reader takes for a boolean
// or null.
var yaml11Words = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"~": true, "null": true, "Null": true, "NULL": true,
}

// PlainYAML11 reports whether s, written unquoted as a YAML value, reads
// back as the same string by a YAML 1.1 reader (yaml.v2, and Helm's
// fromYaml through it). It refuses more than it must: anything that
// starts with an indicator, a sign or '.' (.inf, .nan), or looks like a
// number.
func PlainYAML11(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`+.") ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || yaml11Words[s] ||
		strings.ContainsFunc(s, func(r rune) bool {
			return unicode.IsControl(r) || unicode.IsSpace(r) && r != ' ' || r == '\ufeff' || r == utf8.RuneError
		}) {
		return false
	}
	// A number in any of YAML 1.1's forms: digits, signs, '.', '_', ':',
	// exponents, and the letters of 0x, 0o and 0b forms.
	return !strings.ContainsAny(s[:1], "0123456789") ||
		strings.ContainsFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEFxXoO+-._:", r) })
}
