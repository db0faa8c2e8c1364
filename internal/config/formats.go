package config

import (
	"regexp"
	"strings"
)

// MatchFormat reports whether s is of the format (a key of Formats). The
// formats most fields use are matched by hand, byte by byte, a tenth of a
// regular expression's cost on every config loaded; the others by their
// pattern. TestMatchFormatMatchesPatterns holds each hand-written matcher to
// its pattern.
func MatchFormat(format, s string) bool {
	if match, ok := handMatched[format]; ok {
		return match(s)
	}
	re, ok := formatPatterns[format]
	return ok && re.MatchString(s)
}

// handMatched are the formats matched byte by byte.
var handMatched = map[string]func(string) bool{
	"dns-label":         dnsLabel,
	"dns-subdomain":     dnsSubdomain,
	"wildcard-hostname": func(s string) bool { return dnsSubdomain(strings.TrimPrefix(s, "*.")) },
	"quantity":          quantity,
	"duration":          func(s string) bool { return unitNumbers(s, true, "ms", "s", "m", "h") },
	"retention":         func(s string) bool { return unitNumbers(s, false, "ms", "s", "m", "h", "d", "w", "y") },
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

// unitNumbers is PatternDuration (fractions allowed) and PatternRetention
// (not): one or more numbers, each followed by one of units; a unit that
// is a prefix of another (m of ms) is tried after it.
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
