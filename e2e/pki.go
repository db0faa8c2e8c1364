package e2e

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// CA is the harness's test certificate authority: it signs the serving
// certificates of every server (kube-apiserver, the git server, the chart
// proxy's per-host certificates) and the client certificate everyone
// talks to kube-apiserver with. Its certificate is the only one in the
// SSL_CERT_FILE the controllers get.
type CA struct {
	Cert    *x509.Certificate
	Key     crypto.Signer
	CertPEM []byte

	mu    sync.Mutex
	hosts map[string]*tls.Certificate
}

// NewCA makes a fresh CA.
func NewCA() (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "opencenter e2e test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, Key: key, CertPEM: pemBlock("CERTIFICATE", der), hosts: map[string]*tls.Certificate{}}, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		panic(err)
	}
	return n
}

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

// Issued is a certificate the CA signed, with its key.
type Issued struct {
	CertPEM, KeyPEM []byte
	TLS             tls.Certificate
}

// Serving issues a server certificate for hosts (names or IP addresses).
func (ca *CA) Serving(hosts ...string) (*Issued, error) {
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: hosts[0]},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	return ca.issue(tmpl)
}

// Client issues a client certificate; organization is the user's group
// (system:masters makes it a cluster admin).
func (ca *CA) Client(user, organization string) (*Issued, error) {
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: user, Organization: []string{organization}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	return ca.issue(tmpl)
}

func (ca *CA) issue(tmpl *x509.Certificate) (*Issued, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, key.Public(), ca.Key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	is := &Issued{CertPEM: pemBlock("CERTIFICATE", der), KeyPEM: pemBlock("PRIVATE KEY", keyDER)}
	is.TLS, err = tls.X509KeyPair(is.CertPEM, is.KeyPEM)
	return is, err
}

// ForHost returns a serving certificate for host, issued once per host:
// the chart proxy answers for any host a HelmRepository names.
func (ca *CA) ForHost(host string) (*tls.Certificate, error) {
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if c, ok := ca.hosts[host]; ok {
		return c, nil
	}
	is, err := ca.Serving(host)
	if err != nil {
		return nil, err
	}
	ca.hosts[host] = &is.TLS
	return &is.TLS, nil
}

// Pool is a cert pool holding only the CA.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// WriteFiles writes the issued pair as dir/name.crt and dir/name.key.
func (is *Issued) WriteFiles(dir, name string) (certFile, keyFile string, err error) {
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, is.CertPEM, 0o600); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(keyFile, is.KeyPEM, 0o600); err != nil {
		return "", "", err
	}
	return certFile, keyFile, nil
}

// serviceAccountKey writes the key pair kube-apiserver signs and checks
// service account tokens with (it will not start without one).
func serviceAccountKey(dir string) (pub, priv string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return "", "", err
	}
	pub, priv = filepath.Join(dir, "sa.pub"), filepath.Join(dir, "sa.key")
	if err := os.WriteFile(priv, pemBlock("PRIVATE KEY", privDER), 0o600); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(pub, pemBlock("PUBLIC KEY", pubDER), 0o600); err != nil {
		return "", "", err
	}
	return pub, priv, nil
}

// freePort returns a TCP port free on 127.0.0.1 now, never the same one
// twice in a run. A process given it binds it a moment later; nothing else
// on the machine is expected to race for it.
func freePort() (int, error) {
	ports.Lock()
	defer ports.Unlock()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !ports.given[p] {
			ports.given[p] = true
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free port on 127.0.0.1")
}

var ports = struct {
	sync.Mutex
	given map[int]bool
}{given: map[int]bool{}}

func addr(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }
