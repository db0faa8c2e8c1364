package worktree

import (
	"os"
	"path/filepath"
	"strings"
)

// Root returns the work tree holding dir (absolute), false when no git
// repository holds it.
func Root(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// GitDir returns the git directory of the repository holding dir: its
// .git directory, or the directory its .git file names; false when there
// is none.
func GitDir(dir string) (string, bool) {
	root, ok := Root(dir)
	if !ok {
		return "", false
	}
	dotgit := filepath.Join(root, ".git")
	info, err := os.Stat(dotgit)
	if err != nil {
		return "", false
	}
	if info.IsDir() {
		return dotgit, true
	}
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	return target, true
}
