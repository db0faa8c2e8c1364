package gitrepo

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path"
	"slices"
	"strings"
)

// Snapshot is a repository's files at one commit.
type Snapshot struct {
	// Ref is the ref as asked for (a tag, branch or commit).
	Ref string
	// Commit is the full commit hash the ref resolved to.
	Commit string
	// Files maps slash-separated paths to contents.
	Files map[string][]byte
}

// Resolve returns the commit a ref names in the repository at dir (a checkout
// or a bare git directory), for a ref a person gives: a tag first, then a
// local branch, then a remote-tracking branch of origin, then a full ref
// name or commit. (Flux is stricter: see ResolveExact.)
func Resolve(dir, ref string) (string, error) {
	if ref == "" {
		return "", errors.New("empty ref")
	}
	var tried []string
	for _, r := range slices.Concat([]string{TagRef(ref)}, BranchRefs(ref), []string{ref}) {
		out, err := git(dir, "rev-parse", "--verify", "--quiet", r+"^{commit}")
		if err == nil {
			return strings.TrimSpace(string(out)), nil
		}
		tried = append(tried, r)
	}
	return "", fmt.Errorf("%s: no tag, branch or commit %q (tried %s)", dir, ref, strings.Join(tried, ", "))
}

// TagRef is the full ref name of a tag.
func TagRef(tag string) string { return "refs/tags/" + tag }

// BranchRefs are the full ref names a branch may have in a repository: a
// local branch, or in a clone origin's remote-tracking one.
func BranchRefs(branch string) []string {
	return []string{"refs/heads/" + branch, "refs/remotes/origin/" + branch}
}

// ResolveExact returns the commit of the first of names, each a full ref
// name (refs/tags/2026.01) or a commit, that the repository at dir has;
// found is false when it has none of them.
func ResolveExact(dir string, names ...string) (commit string, found bool) {
	for _, n := range names {
		if out, err := git(dir, "rev-parse", "--verify", "--quiet", n+"^{commit}"); err == nil {
			return strings.TrimSpace(string(out)), true
		}
	}
	return "", false
}

// Read returns the files of the repository at dir at ref, limited to the
// paths under prefixes when any are given. Symbolic links and submodules are
// left out: Flux does not follow them out of the artifact either.
func Read(dir, ref string, prefixes ...string) (*Snapshot, error) {
	commit, err := Resolve(dir, ref)
	if err != nil {
		return nil, err
	}
	args := append([]string{"archive", "--format=tar", commit, "--"}, prefixes...)
	out, err := git(dir, args...)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Ref: ref, Commit: commit, Files: map[string][]byte{}}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: reading git archive of %s: %w", dir, ref, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: reading git archive of %s: %w", dir, ref, err)
		}
		s.Files[path.Clean(h.Name)] = data
	}
	return s, nil
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}

// DefaultBranch names the default branch of the repository at dir, as a
// ref Resolve takes: origin's HEAD (origin/main) when the clone knows it,
// else the first of main, master, origin/main and origin/master it has.
func DefaultBranch(dir string) (string, error) {
	if out, err := git(dir, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	for _, b := range []string{"main", "master", "origin/main", "origin/master"} {
		full := "refs/heads/" + b
		if strings.HasPrefix(b, "origin/") {
			full = "refs/remotes/" + b
		}
		if _, err := git(dir, "rev-parse", "--verify", "--quiet", full); err == nil {
			return b, nil
		}
	}
	return "", fmt.Errorf("%s: no default branch (no origin/HEAD, main or master)", dir)
}

// MergeBase returns the best common ancestor of two commits of the
// repository at dir, where a branch forked from the other.
func MergeBase(dir, a, b string) (string, error) {
	out, err := git(dir, "merge-base", a, b)
	if err != nil {
		return "", fmt.Errorf("%s: no common ancestor of %s and %s (a shallow clone has too little history: fetch it whole)", dir, a, b)
	}
	return strings.TrimSpace(string(out)), nil
}
