package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"

	"filippo.io/age"
	kustomize "github.com/fluxcd/pkg/apis/kustomize"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	"github.com/opencenter-dev/opencenter/internal/helmvalues"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// Expected is what the git trees say the cluster should hold, built the
// way kustomize-controller builds (package fluxbuild, over the artifacts
// source-controller made of the commits the harness pushed), with SOPS
// Secrets decrypted by the fixture's key.
type Expected struct {
	// Data are the Secrets' and ConfigMaps' data, by kind/namespace/name.
	Data map[string]map[string][]byte
	// Encrypted are the Secrets that were SOPS-encrypted in git, by namespace/name.
	Encrypted map[string]EncryptedSecret
	// Units are the objects each Kustomization builds, by unit name, as kind/namespace/name.
	Units map[string][]string
	// Built are the same objects with their apiVersion.
	Built map[string][]Obj
	// Problems are builds that failed.
	Problems []string
}

// EncryptedSecret is a Secret SOPS-encrypted in git: its unit, and its
// data decrypted.
type EncryptedSecret struct {
	Unit string
	Data map[string][]byte
}

// BuildExpected builds every Kustomization in the cluster from its source's artifact.
func BuildExpected(ctx context.Context, k *Kube, ids []age.Identity) (*Expected, error) {
	ex := &Expected{Data: map[string]map[string][]byte{}, Encrypted: map[string]EncryptedSecret{}, Units: map[string][]string{}, Built: map[string][]Obj{}}
	ks, err := k.List(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "")
	if err != nil {
		return nil, err
	}
	trees := map[string]fluxbuild.Tree{}
	for _, ko := range ks {
		unit := str(ko, "metadata", "name")
		srcNS := str(ko, "spec", "sourceRef", "namespace")
		if srcNS == "" {
			srcNS = str(ko, "metadata", "namespace")
		}
		src, err := k.Get(ctx, "source.toolkit.fluxcd.io/v1", "GitRepository", srcNS, str(ko, "spec", "sourceRef", "name"))
		if err != nil {
			ex.Problems = append(ex.Problems, fmt.Sprintf("%s: source: %v", unit, err))
			continue
		}
		url := str(src, "status", "artifact", "url")
		if url == "" {
			ex.Problems = append(ex.Problems, fmt.Sprintf("%s: source %s has no artifact", unit, str(src, "metadata", "name")))
			continue
		}
		tree, ok := trees[url]
		if !ok {
			if tree, err = fetchArtifact(ctx, url); err != nil {
				return nil, err
			}
			trees[url] = tree
		}
		var patches []kustomize.Patch
		if raw, ok := field(ko, "spec", "patches").([]any); ok {
			data, _ := json.Marshal(raw)
			if err := json.Unmarshal(data, &patches); err != nil {
				return nil, err
			}
		}
		b, err := fluxbuild.NewBuilder(tree)
		if err != nil {
			return nil, err
		}
		res, err := b.Build(strings.TrimPrefix(path.Clean(str(ko, "spec", "path")), "./"), str(ko, "spec", "targetNamespace"), patches)
		if err != nil {
			ex.Problems = append(ex.Problems, fmt.Sprintf("%s: build: %v", unit, err))
			continue
		}
		for _, o := range res.Objects {
			ex.Units[unit] = append(ex.Units[unit], o.ID())
			ex.Built[unit] = append(ex.Built[unit], Obj{"apiVersion": o.APIVersion, "kind": o.Kind, "namespace": o.Namespace, "name": o.Name})
			if o.Kind != "Secret" && o.Kind != "ConfigMap" {
				continue
			}
			data, encrypted, err := objectData(o, tree, ids)
			if err != nil {
				ex.Problems = append(ex.Problems, fmt.Sprintf("%s: %s: %v", unit, o.ID(), err))
				continue
			}
			key := o.Kind + "/" + o.Namespace + "/" + o.Name
			ex.Data[key] = data
			if encrypted {
				ex.Encrypted[o.Namespace+"/"+o.Name] = EncryptedSecret{Unit: unit, Data: data}
			}
		}
	}
	return ex, nil
}

// objectData returns a Secret's or ConfigMap's data as the API server will
// hold it, decrypting what is SOPS-encrypted: a Secret manifest (the whole
// file), or a generator's file that is.
func objectData(o fluxbuild.Object, tree fluxbuild.Tree, ids []age.Identity) (map[string][]byte, bool, error) {
	body := o.Body
	encrypted := false
	if _, ok := body["sops"]; ok && !o.Generated() {
		plain, _, err := sops.Decrypt(tree[o.File], ids)
		if err != nil {
			return nil, false, fmt.Errorf("decrypt %s: %w", o.File, err)
		}
		found := false
		for _, doc := range bytes.Split(plain, []byte("\n---")) {
			var m map[string]any
			if err := sigsyaml.Unmarshal(doc, &m); err != nil || m == nil {
				continue
			}
			if fluxbuild.String(m, "kind") == o.Kind && fluxbuild.String(m, "metadata", "name") == o.Name {
				// The build's body (namespace, labels) with the decrypted data.
				body = map[string]any{"data": m["data"], "stringData": m["stringData"]}
				found = true
				break
			}
		}
		if !found {
			return nil, false, fmt.Errorf("decrypted %s holds no %s %s", o.File, o.Kind, o.Name)
		}
		encrypted = true
	}
	out := map[string][]byte{}
	if d, ok := body["data"].(map[string]any); ok {
		for k, v := range d {
			s, _ := v.(string)
			if o.Kind == "ConfigMap" {
				out[k] = []byte(s)
				continue
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return nil, false, fmt.Errorf("data.%s is not base64", k)
			}
			out[k] = b
		}
	}
	if d, ok := body["stringData"].(map[string]any); ok {
		for k, v := range d {
			s, _ := v.(string)
			out[k] = []byte(s)
		}
	}
	if o.Generated() {
		for k, v := range out {
			if sops.IsEncrypted(v) {
				plain, _, err := sops.Decrypt(v, ids)
				if err != nil {
					return nil, false, fmt.Errorf("decrypt generated key %s: %w", k, err)
				}
				out[k], encrypted = plain, true
			}
		}
	}
	return out, encrypted, nil
}

// fetchArtifact downloads a source-controller artifact (a .tar.gz).
func fetchArtifact(ctx context.Context, url string) (fluxbuild.Tree, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("artifact %s: %s", url, resp.Status)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		return nil, err
	}
	tree := fluxbuild.Tree{}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return tree, nil
		}
		if err != nil {
			return nil, err
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		tree[strings.TrimPrefix(path.Clean(hdr.Name), "./")] = data
	}
}

// Release is what the harness reads of a Helm release.
type Release struct {
	Name, Namespace string
	Version         int
	Status          string
	Chart, ChartVer string
	Config          map[string]any
}

// Releases reads the latest Helm release of each name from Helm's storage
// Secrets (type helm.sh/release.v1), as helm get values does.
func Releases(ctx context.Context, k *Kube) (map[string]*Release, error) {
	secrets, err := k.List(ctx, "v1", "Secret", "", "labelSelector=owner%3Dhelm")
	if err != nil {
		return nil, err
	}
	out := map[string]*Release{}
	for _, s := range secrets {
		raw, err := base64.StdEncoding.DecodeString(str(s, "data", "release"))
		if err != nil {
			return nil, err
		}
		gz, err := base64.StdEncoding.DecodeString(string(raw))
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return nil, err
		}
		js, err := io.ReadAll(zr)
		if err != nil {
			return nil, err
		}
		var rel struct {
			Name, Namespace string
			Version         int
			Info            struct{ Status string }
			Chart           struct {
				Metadata struct{ Name, Version string }
			}
			Config map[string]any
		}
		if err := json.Unmarshal(js, &rel); err != nil {
			return nil, err
		}
		key := str(s, "metadata", "namespace") + "/" + rel.Name
		if prev, ok := out[key]; ok && prev.Version > rel.Version {
			continue
		}
		if rel.Config == nil {
			rel.Config = map[string]any{}
		}
		out[key] = &Release{Name: rel.Name, Namespace: rel.Namespace, Version: rel.Version, Status: rel.Info.Status,
			Chart: rel.Chart.Metadata.Name, ChartVer: rel.Chart.Metadata.Version, Config: rel.Config}
	}
	return out, nil
}

// ExpectedValues composes a HelmRelease's values as helm-controller
// does: each valuesFrom entry in order (a whole key's YAML merged, or one
// value set at targetPath), then spec.values, from the expected data.
func (ex *Expected) ExpectedValues(hr Obj) (map[string]any, error) {
	ns := str(hr, "metadata", "namespace")
	values := map[string]any{}
	list, _ := field(hr, "spec", "valuesFrom").([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		kind, name := fluxbuild.String(m, "kind"), fluxbuild.String(m, "name")
		key := fluxbuild.String(m, "valuesKey")
		if key == "" {
			key = "values.yaml"
		}
		optional, _ := m["optional"].(bool)
		data, ok := ex.Data[kind+"/"+ns+"/"+name]
		if !ok {
			if optional {
				continue
			}
			return nil, fmt.Errorf("valuesFrom %s %s/%s: no build in git makes it", kind, ns, name)
		}
		v, ok := data[key]
		if !ok {
			if optional {
				continue
			}
			return nil, fmt.Errorf("valuesFrom %s %s/%s: no key %s", kind, ns, name, key)
		}
		if tp := fluxbuild.String(m, "targetPath"); tp != "" {
			return nil, fmt.Errorf("valuesFrom %s %s/%s: targetPath %s: the harness does not compose targetPath values", kind, ns, name, tp)
		}
		var doc map[string]any
		if err := sigsyaml.Unmarshal(v, &doc); err != nil {
			return nil, fmt.Errorf("valuesFrom %s %s/%s key %s: %v", kind, ns, name, key, err)
		}
		values = helmvalues.Merge(values, doc)
	}
	if sv, ok := field(hr, "spec", "values").(map[string]any); ok {
		values = helmvalues.Merge(values, sv)
	}
	return values, nil
}

// sameJSON compares two values as JSON documents.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var na, nb any
	_ = json.Unmarshal(ja, &na)
	_ = json.Unmarshal(jb, &nb)
	ca, _ := json.Marshal(na)
	cb, _ := json.Marshal(nb)
	return bytes.Equal(ca, cb)
}
