package e2e

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	sigsyaml "sigs.k8s.io/yaml"
)

// Chart is a stand-in Helm chart: the name and version a HelmRelease asks
// for, a ConfigMap as its only template (no workload: nothing would run
// it), and in crds/ the real CRDs of the chart it stands for where later
// units create custom resources of them.
type Chart struct {
	Name, Version string
	CRDs          [][]byte
}

// Package returns the chart as a .tgz, deterministic for its content.
func (c *Chart) Package() ([]byte, error) {
	files, err := c.files()
	if err != nil {
		return nil, err
	}
	return tgz(c.Name, files)
}

// files are the chart's files, by path in the chart.
func (c *Chart) files() (map[string][]byte, error) {
	meta, err := sigsyaml.Marshal(map[string]any{
		"apiVersion":  "v2",
		"name":        c.Name,
		"version":     c.Version,
		"appVersion":  c.Version,
		"description": "opencenter e2e stand-in for the " + c.Name + " chart " + c.Version,
		"type":        "application",
	})
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"Chart.yaml":  meta,
		"values.yaml": []byte("{}\n"),
		"templates/standin.yaml": []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-e2e-standin
  namespace: {{ .Release.Namespace }}
data:
  chart: {{ .Chart.Name | quote }}
  version: {{ .Chart.Version | quote }}
`),
	}
	for i, crd := range c.CRDs {
		files[fmt.Sprintf("crds/crd-%02d.yaml", i)] = crd
	}
	return files, nil
}

func tgz(dir string, files map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		hdr := &tar.Header{Name: dir + "/" + n, Mode: 0o644, Size: int64(len(files[n])), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(files[n]); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ChartRepos are the chart repositories the clusters' HelmRepositories
// name, with their stand-in charts: HTTP repositories by URL (host and
// path), OCI ones by repository path (any registry host: Helm may map
// docker.io to registry-1.docker.io).
type ChartRepos struct {
	mu   sync.Mutex
	http map[string]map[string]*Chart // "host/path" -> chart file name -> chart
	oci  map[string]map[string]*Chart // "repo/path/chart" -> tag -> chart
	tgz  map[*Chart][]byte
	// Requests logs what was asked for, for the logs folder.
	log io.Writer
}

// NewChartRepos makes an empty set.
func NewChartRepos(log io.Writer) *ChartRepos {
	return &ChartRepos{http: map[string]map[string]*Chart{}, oci: map[string]map[string]*Chart{}, tgz: map[*Chart][]byte{}, log: log}
}

// Add serves chart from the HelmRepository at url (https:// or oci://).
func (r *ChartRepos) Add(url string, c *Chart) error {
	data, err := c.Package()
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tgz[c] = data
	switch {
	case strings.HasPrefix(url, "oci://"):
		host, repo, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(url, "oci://"), "/"), "/")
		_ = host
		key := strings.Trim(repo+"/"+c.Name, "/")
		if r.oci[key] == nil {
			r.oci[key] = map[string]*Chart{}
		}
		r.oci[key][strings.ReplaceAll(c.Version, "+", "_")] = c
	case strings.HasPrefix(url, "https://"):
		key := strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/")
		if r.http[key] == nil {
			r.http[key] = map[string]*Chart{}
		}
		r.http[key][c.Name+"-"+c.Version+".tgz"] = c
	default:
		return fmt.Errorf("chart repository %s: neither https:// nor oci://", url)
	}
	return nil
}

// ServeHTTP answers for the host the request names: a Helm repository
// index and chart files, or the OCI distribution API for charts.
func (r *ChartRepos) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	host := req.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if req.URL.Path == "/v2" || strings.HasPrefix(req.URL.Path, "/v2/") {
		r.serveOCI(w, req)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	full := host + req.URL.Path
	for key, charts := range r.http {
		if full == key+"/index.yaml" {
			w.Header().Set("Content-Type", "application/x-yaml")
			w.Write(r.index("https://"+key, charts))
			return
		}
		if dir, file := path.Split(full); strings.TrimSuffix(dir, "/") == key {
			if c, ok := charts[file]; ok {
				w.Header().Set("Content-Type", "application/gzip")
				w.Write(r.tgz[c])
				return
			}
		}
	}
	http.NotFound(w, req)
}

// index is a Helm repository index.yaml for charts.
func (r *ChartRepos) index(base string, charts map[string]*Chart) []byte {
	entries := map[string][]map[string]any{}
	files := make([]string, 0, len(charts))
	for f := range charts {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		c := charts[f]
		sum := sha256.Sum256(r.tgz[c])
		entries[c.Name] = append(entries[c.Name], map[string]any{
			"apiVersion": "v2", "name": c.Name, "version": c.Version, "appVersion": c.Version,
			"urls": []string{base + "/" + f}, "digest": hex.EncodeToString(sum[:]),
			"created": "2026-01-01T00:00:00Z",
		})
	}
	out, _ := sigsyaml.Marshal(map[string]any{"apiVersion": "v1", "entries": entries, "generated": "2026-01-01T00:00:00Z"})
	return out
}

// serveOCI is the part of the OCI distribution API Helm pulls with.
func (r *ChartRepos) serveOCI(w http.ResponseWriter, req *http.Request) {
	p := strings.TrimPrefix(req.URL.Path, "/v2/")
	if p == "" || p == "/v2" {
		w.Header().Set("Docker-Distribution-API-Version", "registry/2.0")
		w.Write([]byte("{}"))
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for key, tags := range r.oci {
		rest, ok := strings.CutPrefix(p, key+"/")
		if !ok {
			continue
		}
		switch {
		case rest == "tags/list":
			list := make([]string, 0, len(tags))
			for t := range tags {
				list = append(list, t)
			}
			sort.Strings(list)
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"name": key, "tags": list})
			return
		case strings.HasPrefix(rest, "manifests/"):
			ref := strings.TrimPrefix(rest, "manifests/")
			for tag, c := range tags {
				m, digest := r.manifest(c)
				if ref == tag || ref == digest {
					serveBlob(w, req, "application/vnd.oci.image.manifest.v1+json", digest, m)
					return
				}
			}
		case strings.HasPrefix(rest, "blobs/"):
			d := strings.TrimPrefix(rest, "blobs/")
			for _, c := range tags {
				for _, blob := range [][]byte{r.config(c), r.tgz[c]} {
					if digestOf(blob) == d {
						serveBlob(w, req, "application/octet-stream", d, blob)
						return
					}
				}
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(`{"errors":[{"code":"NAME_UNKNOWN","message":"no such stand-in chart"}]}`))
}

// serveBlob answers a registry GET or HEAD with one manifest or blob.
func serveBlob(w http.ResponseWriter, req *http.Request, contentType, digest string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Docker-Content-Digest", digest)
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	if req.Method != http.MethodHead {
		w.Write(body)
	}
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (r *ChartRepos) config(c *Chart) []byte {
	b, _ := json.Marshal(map[string]any{"apiVersion": "v2", "name": c.Name, "version": c.Version})
	return b
}

// manifest is the OCI manifest of a Helm chart (Helm's media types).
func (r *ChartRepos) manifest(c *Chart) ([]byte, string) {
	cfg, content := r.config(c), r.tgz[c]
	m, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.manifest.v1+json",
		"config":        map[string]any{"mediaType": "application/vnd.cncf.helm.config.v1+json", "digest": digestOf(cfg), "size": len(cfg)},
		"layers": []any{map[string]any{"mediaType": "application/vnd.cncf.helm.chart.content.v1.tar+gzip",
			"digest": digestOf(content), "size": len(content)}},
		"annotations": map[string]string{"org.opencontainers.image.title": c.Name, "org.opencontainers.image.version": c.Version},
	})
	return m, digestOf(m)
}

// Proxy is an HTTP proxy that answers CONNECT for any host itself, with a
// certificate for that host from the test CA: requests to github.com go to
// the git server, every other host to the chart repositories. Nothing
// leaves the machine.
type Proxy struct {
	Addr string
	l    net.Listener
	ca   *CA
	git  http.Handler
	rest http.Handler
	log  *os.File
}

// NewProxy starts the proxy on 127.0.0.1.
func NewProxy(ca *CA, git, rest http.Handler, log *os.File) (*Proxy, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{Addr: l.Addr().String(), l: l, ca: ca, git: git, rest: rest, log: log}
	go p.serve()
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() { p.l.Close() }

func (p *Proxy) serve() {
	for {
		conn, err := p.l.Accept()
		if err != nil {
			return
		}
		go p.handle(conn)
	}
}

func (p *Proxy) handle(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	if req.Method != http.MethodConnect {
		// Plain http:// through the proxy: nothing the clusters name.
		fmt.Fprintf(p.log, "refused plain %s %s\n", req.Method, req.URL)
		io.WriteString(conn, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	host, _, err := net.SplitHostPort(req.Host)
	if err != nil {
		host = req.Host
	}
	io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	cert, err := p.ca.ForHost(host)
	if err != nil {
		return
	}
	tconn := tls.Server(&prefixed{Conn: conn, r: br}, &tls.Config{Certificates: []tls.Certificate{*cert}, NextProtos: []string{"http/1.1"}})
	if err := tconn.Handshake(); err != nil {
		fmt.Fprintf(p.log, "CONNECT %s: TLS handshake: %v\n", req.Host, err)
		return
	}
	h := p.rest
	if host == "github.com" {
		h = p.git
	}
	srv := &http.Server{Handler: logged(p.log, h)}
	l := &oneConn{c: tconn, done: make(chan struct{})}
	srv.Serve(l)
	<-l.done
}

// prefixed is a conn whose first bytes were read into r already.
type prefixed struct {
	net.Conn
	r *bufio.Reader
}

func (p *prefixed) Read(b []byte) (int, error) { return p.r.Read(b) }

// oneConn is a listener that yields one connection, then waits for it to close.
type oneConn struct {
	c    net.Conn
	once sync.Once
	done chan struct{}
	used bool
}

func (l *oneConn) Accept() (net.Conn, error) {
	if !l.used {
		l.used = true
		return &closeNotify{Conn: l.c, l: l}, nil
	}
	<-l.done
	return nil, net.ErrClosed
}

func (l *oneConn) Close() error   { return nil }
func (l *oneConn) Addr() net.Addr { return l.c.LocalAddr() }

type closeNotify struct {
	net.Conn
	l *oneConn
}

func (c *closeNotify) Close() error {
	err := c.Conn.Close()
	c.l.once.Do(func() { close(c.l.done) })
	return err
}

// versionFor picks the version a stand-in chart gets for what a HelmRelease
// asks: the version itself when exact, else the lowest version the range
// allows (4.0.x gives 4.0.0, ~3.29.0 gives 3.29.0).
func versionFor(asked string) string {
	v := strings.TrimSpace(asked)
	if v == "" || v == "*" {
		return "0.0.1"
	}
	v = strings.TrimLeft(v, "~^=>v ")
	if strings.HasPrefix(asked, "v") {
		v = "v" + v
	}
	parts := strings.Split(v, ".")
	for i, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			parts[i] = "0"
		}
	}
	for len(parts) < 3 {
		parts = append(parts, "0")
	}
	return strings.Join(parts, ".")
}
