package escape

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// readAWSCredentials reads the access key id of the default profile from
// an AWS shared credentials file holding the line
// "aws_access_key_id=<value>", with aws-sdk-go-v2's config loader, which
// Velero's AWS plugin reads its credentials file (velero-credentials) with.
// A panic of the reader is an error.
func readAWSCredentials(dir, value string) (id string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the AWS SDK panics: %v", r)
		}
	}()
	file := filepath.Join(dir, "cloud")
	text := "[default]\naws_access_key_id=" + value + "\naws_secret_access_key=secret\n"
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return "", err
	}
	cfg, err := config.LoadSharedConfigProfile(context.Background(), "default", func(o *config.LoadSharedConfigOptions) {
		o.CredentialsFiles = []string{file}
		o.ConfigFiles = []string{}
	})
	return cfg.Credentials.AccessKeyID, err
}

// TestINIValueReadsBackWithAWS: every value INIValue writes, the AWS SDK
// reads back as itself, and every value it refuses the SDK would change (or
// holds a character no value is written raw with). Tried on the escapers'
// corpus, on quotes, comment characters and separators, and on random
// strings of them.
func TestINIValueReadsBackWithAWS(t *testing.T) {
	dir := t.TempDir()
	values := append([]string{`"`, `'`, `""`, `''`, `"a"`, `'a'`, `"a`, `a"`, `"a'`, `"a"b`, `" a "`, "abc#def", "abc;def",
		"a #c", "a ;c", "a=b", "a = b", "a:b", "=", "[x]", `a\b`}, corpus...)
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"a", "Z", "0", " ", `"`, "'", "#", ";", "=", ":", "[", "]", `\`, "é", "/", "+"}
	for range 3000 {
		var w strings.Builder
		for range 1 + r.IntN(6) {
			w.WriteString(parts[r.IntN(len(parts))])
		}
		values = append(values, w.String())
	}
	written := 0
	for _, s := range values {
		got, err := readAWSCredentials(dir, s)
		if _, refused := INIValue(nil, s); refused != nil {
			// Only what the reader would change, and the characters no
			// value is written raw with, are refused.
			if err == nil && got == s && !strings.ContainsFunc(s, func(r rune) bool { return !yamlenc.RawOK(r) }) {
				t.Errorf("INIValue refuses %q, which the AWS SDK reads back as itself: %v", s, refused)
			}
			continue
		}
		written++
		if err != nil || got != s {
			t.Errorf("INIValue writes %q, which the AWS SDK reads as %q (%v)", s, got, err)
		}
	}
	if written < 500 {
		t.Errorf("only %d values written: the test sees too few", written)
	}
}
