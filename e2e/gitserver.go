package e2e

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GitServer serves bare repositories read-only over HTTPS with git's own
// smart HTTP server (git http-backend, run as a CGI program), the way a
// git host does. Repositories live at Root/<owner>/<name>.git and are
// served at https://127.0.0.1:PORT/<owner>/<name>.git, and, through the
// chart proxy, at https://github.com/<owner>/<name>.git for the sources
// the base names on GitHub.
type GitServer struct {
	Root    string
	URL     string
	handler http.Handler
	srv     *http.Server
}

// NewGitServer starts the server.
func NewGitServer(root string, ca *CA, logFile string) (*GitServer, error) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	execPath, err := exec.Command(gitBin, "--exec-path").Output()
	if err != nil {
		return nil, err
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	log, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	g := &GitServer{Root: root}
	g.handler = &cgi.Handler{
		Path:   backend,
		Root:   "/",
		Env:    []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
		Stderr: log,
	}
	serving, err := ca.Serving("127.0.0.1")
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	g.URL = "https://" + l.Addr().String()
	g.srv = &http.Server{Handler: logged(log, g.handler), TLSConfig: &tls.Config{Certificates: []tls.Certificate{serving.TLS}}}
	go g.srv.ServeTLS(l, "", "")
	return g, nil
}

// Close stops the server.
func (g *GitServer) Close() { g.srv.Close() }

// RepoURL is a repository's URL on the server.
func (g *GitServer) RepoURL(owner, name string) string {
	return g.URL + "/" + owner + "/" + name + ".git"
}

// Bare returns the bare repository of owner/name, created empty when it
// does not exist.
func (g *GitServer) Bare(owner, name string) (string, error) {
	dir := filepath.Join(g.Root, owner, name+".git")
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if _, err := git(dir, "init", "--bare", "--quiet", "--initial-branch=main"); err != nil {
		return "", err
	}
	return dir, nil
}

// git runs git in dir with a fixed identity and no user configuration.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=opencenter e2e", "GIT_AUTHOR_EMAIL=e2e@opencenter.invalid",
		"GIT_COMMITTER_NAME=opencenter e2e", "GIT_COMMITTER_EMAIL=e2e@opencenter.invalid")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s (in %s): %w: %s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return out, nil
}

// commitTree commits the whole of the work tree dir (made a git
// repository if it is not one) and pushes the commit to bare as each of
// refs (full ref names: refs/heads/main, refs/tags/2026.01), returning it.
func commitTree(dir, bare, message string, refs ...string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if _, err := git(dir, "init", "--quiet", "--initial-branch=main"); err != nil {
			return "", err
		}
	}
	if _, err := git(dir, "add", "--all", "."); err != nil {
		return "", err
	}
	if _, err := git(dir, "commit", "--quiet", "--allow-empty", "-m", message); err != nil {
		return "", err
	}
	out, err := git(dir, "rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	commit := strings.TrimSpace(string(out))
	args := []string{"push", "--quiet", "--force", bare}
	for _, r := range refs {
		args = append(args, commit+":"+r)
	}
	if _, err := git(dir, args...); err != nil {
		return "", err
	}
	return commit, nil
}

// logged logs each request's method, path and status.
func logged(w *os.File, h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rec := &status{ResponseWriter: rw, code: http.StatusOK}
		h.ServeHTTP(rec, r)
		fmt.Fprintf(w, "%s %s%s %d\n", r.Method, r.Host, r.URL.RequestURI(), rec.code)
	})
}

type status struct {
	http.ResponseWriter
	code int
}

func (s *status) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}
