package config_test

import (
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// BenchmarkLoad decrypts, decodes, defaults and validates the k8s-dev
// fixture config (its secrets: are SOPS-encrypted, for the key TestMain
// points at).
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := config.Load("../../testdata/fixture/.k8s-dev-config.yaml", config.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
