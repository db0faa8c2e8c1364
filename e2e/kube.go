package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// Kube is a small client of the API server's REST interface: what the
// harness needs (server-side apply, get, list, delete, watch) without
// client-go, which the main module does not depend on.
type Kube struct {
	Server string
	http   *http.Client

	mu        sync.Mutex
	resources map[string]resource // by apiVersion + "/" + kind
}

type resource struct {
	name       string
	namespaced bool
}

// NewKube connects to server with a client certificate.
func NewKube(server string, ca *CA, client *Issued) *Kube {
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool(), Certificates: []tls.Certificate{client.TLS}}}
	return &Kube{Server: server, http: &http.Client{Transport: tr}, resources: map[string]resource{}}
}

// StatusError is an error the API server answered with.
type StatusError struct {
	Code    int
	Reason  string
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Code, e.Reason, e.Message)
}

// IsNotFound reports a 404 from the API server.
func IsNotFound(err error) bool {
	se, ok := err.(*StatusError)
	return ok && se.Code == http.StatusNotFound
}

func (k *Kube) do(ctx context.Context, method, path, contentType string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, k.Server+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := k.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		var st struct{ Reason, Message string }
		_ = json.Unmarshal(data, &st)
		if st.Message == "" {
			st.Message = strings.TrimSpace(string(data))
		}
		return nil, &StatusError{Code: resp.StatusCode, Reason: st.Reason, Message: st.Message}
	}
	return data, nil
}

// resource finds the REST resource of a kind through discovery, asking
// again when it is not known yet (a CRD just installed).
func (k *Kube) resource(ctx context.Context, apiVersion, kind string) (resource, error) {
	key := apiVersion + "/" + kind
	k.mu.Lock()
	r, ok := k.resources[key]
	k.mu.Unlock()
	if ok {
		return r, nil
	}
	path := "/apis/" + apiVersion
	if !strings.Contains(apiVersion, "/") {
		path = "/api/" + apiVersion
	}
	data, err := k.do(ctx, http.MethodGet, path, "", nil)
	if err != nil {
		return resource{}, fmt.Errorf("discovery of %s: %w", apiVersion, err)
	}
	var list struct {
		Resources []struct {
			Name       string
			Kind       string
			Namespaced bool
		}
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return resource{}, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, res := range list.Resources {
		if strings.Contains(res.Name, "/") {
			continue
		}
		k.resources[apiVersion+"/"+res.Kind] = resource{name: res.Name, namespaced: res.Namespaced}
	}
	r, ok = k.resources[key]
	if !ok {
		return resource{}, &StatusError{Code: http.StatusNotFound, Reason: "NoKind", Message: "the API server serves no " + kind + " in " + apiVersion}
	}
	return r, nil
}

// path is the REST path of the collection (name "") or of one object.
func (k *Kube) path(ctx context.Context, apiVersion, kind, namespace, name string) (string, error) {
	r, err := k.resource(ctx, apiVersion, kind)
	if err != nil {
		return "", err
	}
	p := "/apis/" + apiVersion
	if !strings.Contains(apiVersion, "/") {
		p = "/api/" + apiVersion
	}
	if r.namespaced && namespace != "" {
		p += "/namespaces/" + url.PathEscape(namespace)
	}
	p += "/" + r.name
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p, nil
}

// Obj is an object as JSON decodes it.
type Obj = map[string]any

func meta(o Obj) (apiVersion, kind, namespace, name string) {
	m, _ := o["metadata"].(map[string]any)
	apiVersion, _ = o["apiVersion"].(string)
	kind, _ = o["kind"].(string)
	namespace, _ = m["namespace"].(string)
	name, _ = m["name"].(string)
	return
}

// Apply server-side applies o as the harness's field manager (force: the
// harness owns what it applies).
func (k *Kube) Apply(ctx context.Context, o Obj) error {
	apiVersion, kind, ns, name := meta(o)
	p, err := k.path(ctx, apiVersion, kind, ns, name)
	if err != nil {
		return err
	}
	body, err := json.Marshal(o)
	if err != nil {
		return err
	}
	_, err = k.do(ctx, http.MethodPatch, p+"?fieldManager=opencenter-e2e&force=true", "application/apply-patch+yaml", body)
	if err != nil {
		return fmt.Errorf("apply %s %s/%s: %w", kind, ns, name, err)
	}
	return nil
}

// Get returns one object.
func (k *Kube) Get(ctx context.Context, apiVersion, kind, namespace, name string) (Obj, error) {
	p, err := k.path(ctx, apiVersion, kind, namespace, name)
	if err != nil {
		return nil, err
	}
	data, err := k.do(ctx, http.MethodGet, p, "", nil)
	if err != nil {
		return nil, err
	}
	var o Obj
	return o, json.Unmarshal(data, &o)
}

// List returns the objects of a kind, in namespace or all of them ("").
func (k *Kube) List(ctx context.Context, apiVersion, kind, namespace string, query ...string) ([]Obj, error) {
	p, err := k.path(ctx, apiVersion, kind, namespace, "")
	if err != nil {
		return nil, err
	}
	if len(query) > 0 {
		p += "?" + strings.Join(query, "&")
	}
	data, err := k.do(ctx, http.MethodGet, p, "", nil)
	if err != nil {
		return nil, err
	}
	var list struct{ Items []Obj }
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	return list.Items, nil
}

// Merge applies a JSON merge patch to one object.
func (k *Kube) Merge(ctx context.Context, apiVersion, kind, namespace, name string, patch any) error {
	p, err := k.path(ctx, apiVersion, kind, namespace, name)
	if err != nil {
		return err
	}
	body, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	_, err = k.do(ctx, http.MethodPatch, p, "application/merge-patch+json", body)
	return err
}

// Raw GETs a path (the API server's /readyz, /version).
func (k *Kube) Raw(ctx context.Context, path string) ([]byte, error) {
	return k.do(ctx, http.MethodGet, path, "", nil)
}

// WatchEvent is one event of a watch, with the object's resourceVersion
// parsed: within one etcd every write has a revision of its own, so the
// events of different watches can be put in one order.
type WatchEvent struct {
	Type     string
	Object   Obj
	Revision uint64
	Seen     time.Time
}

// Watch streams the events of a kind (in all namespaces) to fn from the
// start of history the API server keeps, reconnecting after the stream
// ends, until ctx is done.
func (k *Kube) Watch(ctx context.Context, apiVersion, kind string, fn func(WatchEvent)) error {
	p, err := k.path(ctx, apiVersion, kind, "", "")
	if err != nil {
		return err
	}
	go func() {
		rv := "0"
		for ctx.Err() == nil {
			last, err := k.watchOnce(ctx, p, rv, fn)
			if last != "" {
				rv = last
			}
			if err != nil && ctx.Err() == nil {
				time.Sleep(200 * time.Millisecond)
			}
		}
	}()
	return nil
}

func (k *Kube) watchOnce(ctx context.Context, p, rv string, fn func(WatchEvent)) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.Server+p+"?watch=1&timeoutSeconds=1800&resourceVersion="+rv, nil)
	if err != nil {
		return "", err
	}
	resp, err := k.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("watch %s: %s", p, resp.Status)
	}
	dec := json.NewDecoder(bufio.NewReader(resp.Body))
	last := ""
	for {
		var ev struct {
			Type   string
			Object Obj
		}
		if err := dec.Decode(&ev); err != nil {
			return last, err
		}
		if ev.Type == "ERROR" {
			return "", fmt.Errorf("watch %s: %v", p, ev.Object["message"])
		}
		m, _ := ev.Object["metadata"].(map[string]any)
		s, _ := m["resourceVersion"].(string)
		var n uint64
		fmt.Sscan(s, &n)
		last = s
		fn(WatchEvent{Type: ev.Type, Object: ev.Object, Revision: n, Seen: time.Now()})
	}
}

// str reads a string at a path of nested maps.
func str(o Obj, keys ...string) string {
	s, _ := field(o, keys...).(string)
	return s
}

// field reads the value at a path of nested maps; nil when any part is absent.
func field(o Obj, keys ...string) any { return fluxbuild.Field(o, keys...) }

// condition returns a status condition of an object.
func condition(o Obj, typ string) (status, reason, message string) {
	conds, _ := field(o, "status", "conditions").([]any)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			status, _ = m["status"].(string)
			reason, _ = m["reason"].(string)
			message, _ = m["message"].(string)
			return
		}
	}
	return "", "", ""
}
