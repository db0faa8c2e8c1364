package plan

import (
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// TestS3EndpointsOpenWithMinio: every endpoint of an S3-compatible store
// that validation accepts for Tempo and Mimir renders to an endpoint their
// S3 client opens, and validation refuses only what that client refuses. Both talk S3 through minio-go (Tempo directly, Mimir
// through Thanos' objstore), which takes a host and port, not a URL, and
// the values give it the configured URL with its scheme taken off (insecure
// for http).
func TestS3EndpointsOpenWithMinio(t *testing.T) {
	endpoints := []string{"https://s3.example.com", "http://minio.example.com:9000", "https://s3.example.com/",
		"https://s3.example.com/bucket", "https://s3.example.com:443/a/b", "https://s3.example.com/?x=1", "https://s3.example.com/#f"}
	services := []struct {
		file string
		at   []string
		set  func(c *config.Config, endpoint string)
	}{
		{"services/tempo/helm-values/override-values.yaml", []string{"storage", "trace", "s3"},
			func(c *config.Config, e string) { c.OpenCenter.Services.Tempo.Endpoint = e }},
		{"services/mimir/helm-values/override-values.yaml", []string{"mimir", "structuredConfig", "common", "storage", "s3"},
			func(c *config.Config, e string) { c.OpenCenter.Services.Mimir.Endpoint = e }},
	}
	opened := 0
	for _, svc := range services {
		for _, e := range endpoints {
			f := loadConfig(t, "../../testdata/fixture/.k8s-dev-config.yaml")
			svc.set(f.Config, e)
			if err := f.Check(); err != nil {
				// Refused: only what minio-go refuses too.
				host := strings.TrimPrefix(strings.TrimPrefix(e, "https://"), "http://")
				if _, merr := minio.New(host, &minio.Options{}); merr == nil {
					t.Errorf("%s: endpoint %q is refused (%v), but minio-go opens %q", svc.file, e, err, host)
				}
				continue
			}
			p, err := Build(f, Options{AllowPlaintextSecrets: true})
			if err != nil {
				t.Fatal(err)
			}
			fl, ok := p.File(svc.file)
			if !ok {
				t.Fatalf("%s is not rendered", svc.file)
			}
			var v map[string]any
			if err := sigsyaml.Unmarshal(fl.Data, &v); err != nil {
				t.Fatal(err)
			}
			s3, _ := fluxbuild.Field(v, svc.at...).(map[string]any)
			endpoint, _ := s3["endpoint"].(string)
			insecure, _ := s3["insecure"].(bool)
			opened++
			if _, err := minio.New(endpoint, &minio.Options{Secure: !insecure}); err != nil {
				t.Errorf("endpoint %q passes validation and renders %s's S3 endpoint %q, which minio-go refuses: %v", e, svc.file, endpoint, err)
			}
		}
	}
	if opened < 4 {
		t.Errorf("only %d endpoints rendered: the test sees too few", opened)
	}
}
