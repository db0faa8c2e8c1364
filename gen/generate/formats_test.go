package generate

import (
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/gen/check"
)

// TestFormatTagErrors: a format or key_format tag that names no format, or
// sits on a field it cannot describe, fails generation at the field's
// declaration.
func TestFormatTagErrors(t *testing.T) {
	cases := []struct{ path, format, keyFormat, want string }{
		{"opencenter.services.loki.bucket", "dns-lable", "", `internal/config/services.go:`},
		{"opencenter.services.loki.bucket", "dns-lable", "", `opencenter.services.loki.bucket: format "dns-lable" is not a format: expected one of aws-region, cidr, core-number, cron, dns-label,`},
		{"opencenter.services.loki.enabled", "dns-label", "", `format "dns-label" on a bool: a format is for a string, or the strings of a list or map`},
		{"opencenter.services.gateway.listeners", "dns-label", "", `format "dns-label" on a list: a format is for a string, or the strings of a list or map`},
		{"opencenter.meta.labels", "", "label", `key_format "label" is not a format`},
		{"opencenter.services.loki.bucket", "", "label-key", `key_format "label-key" on a string: a key format is for a map`},
		{"opencenter.services.metallb.ip_pools[].addresses", "cidr", "", "a format inside a list's elements is checked at load only on a string field"},
	}
	for _, tc := range cases {
		t.Run(tc.path+" "+tc.format+" "+tc.keyFormat, func(t *testing.T) {
			m := freshModel(t)
			n := find(m.Root, tc.path)
			if n == nil {
				t.Fatalf("no node %s", tc.path)
			}
			n.Format, n.KeyFormat = tc.format, tc.keyFormat
			err := check.Formats(m, root)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want %q in:\n%v", tc.want, err)
			}
		})
	}
	if err := check.Formats(loadModel(t), root); err != nil {
		t.Errorf("the project's own tags: %v", err)
	}
}
