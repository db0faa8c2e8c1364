package config_test

import (
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
)

// BenchmarkLoad decrypts, decodes, defaults and validates the k8s-dev
// fixture config (its secrets: are SOPS-encrypted).
func BenchmarkLoad(b *testing.B) {
	if err := fixturekey.Use(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := config.Load("../../testdata/fixture/.k8s-dev-config.yaml", config.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
