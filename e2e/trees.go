package e2e

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Manifest is one Kubernetes object found in a tree, with its file.
type Manifest struct {
	File string
	Obj  Obj
}

// manifests returns the objects of the YAML files of a tree that have an
// apiVersion and kind (values files and kustomizations of kustomize's own
// API are left out), sorted by file.
func manifests(tree map[string][]byte) []Manifest {
	files := make([]string, 0, len(tree))
	for f := range tree {
		if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".yml") {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	var out []Manifest
	for _, f := range files {
		dec := yaml.NewDecoder(bytes.NewReader(tree[f]))
		for {
			var m map[string]any
			err := dec.Decode(&m)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				break
			}
			if m == nil || str(m, "kind") == "" || str(m, "apiVersion") == "" || strings.HasPrefix(str(m, "apiVersion"), "kustomize.config.k8s.io/") {
				continue
			}
			out = append(out, Manifest{File: f, Obj: m})
		}
	}
	return out
}

func ofKind(ms []Manifest, group, kind string) []Manifest {
	var out []Manifest
	for _, m := range ms {
		if str(m.Obj, "kind") == kind && strings.HasPrefix(str(m.Obj, "apiVersion"), group+"/") {
			out = append(out, m)
		}
	}
	return out
}

// readDir reads a directory into a tree (slash paths), leaving out .git.
func readDir(dir string) (map[string][]byte, error) {
	tree := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		tree[filepath.ToSlash(rel)] = data
		return nil
	})
	return tree, err
}

// writeTree writes files under dir.
func writeTree(dir string, files map[string][]byte) error {
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// repoPath splits a git URL (ssh://git@host/owner/name.git,
// git@host:owner/name.git, https://host/owner/name) into its host and
// owner/name path.
func repoPath(u string) (host, owner, name string) {
	if !strings.Contains(u, "://") {
		if at, rest, ok := strings.Cut(u, "@"); ok && !strings.Contains(at, "/") {
			u = "ssh://" + strings.Replace(rest, ":", "/", 1)
		}
	}
	p, err := url.Parse(u)
	if err != nil {
		return "", "", ""
	}
	parts := strings.Split(strings.Trim(strings.TrimSuffix(p.Path, ".git"), "/"), "/")
	if len(parts) < 2 {
		return p.Hostname(), "", strings.Join(parts, "/")
	}
	return p.Hostname(), strings.Join(parts[:len(parts)-1], "/"), parts[len(parts)-1]
}
