package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Cluster is one throwaway cluster: a fresh etcd, a kube-apiserver (no
// kubelet, scheduler or controller-manager: nothing runs a Pod) and the
// three Flux controllers, all on 127.0.0.1.
type Cluster struct {
	Name       string
	Dir        string // state of the cluster (etcd data, storage, certs)
	Logs       string // where each process logs
	Kube       *Kube
	Kubeconfig string
	Storage    string // source-controller's artifact server
	procs      Procs
	ctrl       []*Proc
}

// Harness holds what every cluster shares.
type Harness struct {
	Bin    string // the directory with opencenter and e2e/<component>
	Work   string
	Logs   string
	CA     *CA
	CAFile string
	Admin  *Issued
	// Proxy is the chart proxy's address, given to source-controller (and
	// kustomize-controller, so that the remote bases fail fast, offline,
	// as they would without network).
	Proxy string
}

func (h *Harness) bin(name string) string { return filepath.Join(h.Bin, name) }

// StartCluster starts etcd and kube-apiserver and waits until the API
// server is ready; the controllers start with StartFlux.
func (h *Harness) StartCluster(ctx context.Context, name string) (*Cluster, error) {
	c := &Cluster{Name: name, Dir: filepath.Join(h.Work, name), Logs: filepath.Join(h.Logs, name)}
	for _, d := range []string{c.Dir, c.Logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	ok := false
	defer func() {
		if !ok {
			c.Stop()
		}
	}()

	clientPort, err := freePort()
	if err != nil {
		return nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, err
	}
	etcdURL := "http://" + addr(clientPort)
	peerURL := "http://" + addr(peerPort)
	etcd, err := c.procs.Start(c.Logs, "etcd", nil, h.bin("e2e/etcd"),
		"--name=e2e", "--data-dir="+filepath.Join(c.Dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=e2e="+peerURL, "--initial-cluster-state=new",
		// A throwaway cluster: no fsync, as Kubernetes' own integration tests run etcd.
		"--unsafe-no-fsync", "--log-level=warn")
	if err != nil {
		return nil, err
	}
	err = waitFor(30*time.Second, 100*time.Millisecond, "etcd health", func() error {
		resp, err := http.Get(etcdURL + "/health")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("etcd /health: %s", resp.Status)
		}
		return nil
	}, etcd)
	if err != nil {
		return nil, err
	}

	serving, err := h.CA.Serving("127.0.0.1", "localhost")
	if err != nil {
		return nil, err
	}
	certFile, keyFile, err := serving.WriteFiles(c.Dir, "apiserver")
	if err != nil {
		return nil, err
	}
	saPub, saKey, err := serviceAccountKey(c.Dir)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	server := "https://" + addr(port)
	apiserver, err := c.procs.Start(c.Logs, "kube-apiserver", nil, h.bin("e2e/kube-apiserver"),
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", port),
		"--tls-cert-file="+certFile, "--tls-private-key-file="+keyFile, "--cert-dir="+c.Dir,
		"--client-ca-file="+h.CAFile, "--authorization-mode=RBAC",
		"--service-account-issuer="+server, "--service-account-key-file="+saPub,
		"--service-account-signing-key-file="+saKey, "--service-cluster-ip-range=10.96.0.0/16",
		// No Endpoints for the kubernetes Service: its address would be a loopback one.
		"--endpoint-reconciler-type=none",
		"--enable-priority-and-fairness=false", "--profiling=false", "--v=1")
	if err != nil {
		return nil, err
	}
	c.Kube = NewKube(server, h.CA, h.Admin)
	err = waitFor(90*time.Second, 250*time.Millisecond, "kube-apiserver /readyz", func() error {
		_, err := c.Kube.Raw(ctx, "/readyz")
		return err
	}, apiserver, etcd)
	if err != nil {
		return nil, err
	}
	c.Kubeconfig = filepath.Join(c.Dir, "kubeconfig")
	if err := os.WriteFile(c.Kubeconfig, kubeconfig(server, h.CA.CertPEM, h.Admin), 0o600); err != nil {
		return nil, err
	}
	ok = true
	return c, nil
}

func kubeconfig(server string, ca []byte, user *Issued) []byte {
	b64 := base64.StdEncoding.EncodeToString
	return []byte(strings.Join([]string{
		"apiVersion: v1",
		"kind: Config",
		"clusters:",
		"- name: e2e",
		"  cluster:",
		"    server: " + server,
		"    certificate-authority-data: " + b64(ca),
		"users:",
		"- name: admin",
		"  user:",
		"    client-certificate-data: " + b64(user.CertPEM),
		"    client-key-data: " + b64(user.KeyPEM),
		"contexts:",
		"- name: e2e",
		"  context: {cluster: e2e, user: admin}",
		"current-context: e2e",
		"",
	}, "\n"))
}

// StartFlux starts source-controller, kustomize-controller and
// helm-controller against the cluster, as flux bootstrap would run them
// (every namespace watched), less what a one-node test needs not: leader
// election, event forwarding to a notification-controller.
func (h *Harness) StartFlux(ctx context.Context, c *Cluster) error {
	ports := make([]int, 7)
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return err
		}
		ports[i] = p
	}
	c.Storage = addr(ports[0])
	tmp := filepath.Join(c.Dir, "tmp")
	for _, d := range []string{tmp, filepath.Join(c.Dir, "storage")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	common := []string{"--watch-all-namespaces=true", "--enable-leader-election=false", "--events-addr=",
		"--log-level=info", "--log-encoding=json"}
	env := []string{"RUNTIME_NAMESPACE=flux-system", "KUBECONFIG=" + c.Kubeconfig, "SSL_CERT_FILE=" + h.CAFile, "SSL_CERT_DIR=" + tmp, "TMPDIR=" + tmp, "HOME=" + tmp}
	proxied := append(env, "HTTPS_PROXY=http://"+h.Proxy, "HTTP_PROXY=http://"+h.Proxy, "NO_PROXY=127.0.0.1,localhost")
	start := []struct {
		name string
		env  []string
		args []string
	}{
		{"source-controller", proxied, []string{
			"--storage-path=" + filepath.Join(c.Dir, "storage"), "--storage-addr=" + c.Storage, "--storage-adv-addr=" + c.Storage,
			"--metrics-addr=" + addr(ports[1]), "--health-addr=" + addr(ports[2]), "--concurrent=10"}},
		// The lesson: with the default 4 workers, the -base units
		// waiting on their HelmReleases starve the rest.
		{"kustomize-controller", proxied, []string{"--concurrent=20", "--requeue-dependency=5s",
			"--metrics-addr=" + addr(ports[3]), "--health-addr=" + addr(ports[4])}},
		{"helm-controller", env, []string{"--concurrent=10", "--requeue-dependency=5s",
			"--metrics-addr=" + addr(ports[5]), "--health-addr=" + addr(ports[6])}},
	}
	for i, s := range start {
		p, err := c.procs.Start(c.Logs, s.name, s.env, h.bin("e2e/"+s.name), append(s.args, common...)...)
		if err != nil {
			return err
		}
		c.ctrl = append(c.ctrl, p)
		health := "http://" + addr(ports[2+2*i]) + "/readyz"
		err = waitFor(60*time.Second, 200*time.Millisecond, s.name+" readiness", func() error {
			resp, err := http.Get(health)
			if err != nil {
				return err
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("%s", resp.Status)
			}
			return nil
		}, p)
		if err != nil {
			return err
		}
	}
	return nil
}

// Crashed names a controller that has exited.
func (c *Cluster) Crashed() error {
	for _, p := range c.ctrl {
		if ok, err := p.Exited(); ok {
			return fmt.Errorf("%s exited (%v); see %s", p.Name, err, p.Log)
		}
	}
	return nil
}

// Stop ends every process of the cluster.
func (c *Cluster) Stop() { c.procs.Stop() }
