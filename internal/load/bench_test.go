package load

import "testing"

// BenchmarkLoad decodes, defaults and validates the k8s-dev fixture config.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := File("../../testdata/fixture/.k8s-dev-config.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
