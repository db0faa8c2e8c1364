package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/opencenter-dev/opencenter/internal/worktree"
)

// RepoFlag is the --repo flag of the commands that work in a GitOps
// repository.
type RepoFlag struct {
	Repo string `placeholder:"DIR" help:"The GitOps repository (default: the one holding the working directory, found as git finds it; outside git, the directory of the configs named, else the working directory). Overlays go to its applications/overlays/."`
}

// resolve sets Repo, when not given, to the repository the command runs
// in: the nearest directory at or above the working directory that holds
// .git (a directory, or the file of a worktree), as git finds its work
// tree; outside git, the directory of the configs named (which must be
// one), else the working directory. An overlay is then always written
// under the repository's root, wherever the command runs from.
func (f *RepoFlag) resolve(configs []string) error {
	if f.Repo != "" {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if root, ok := worktree.Root(wd); ok {
		f.Repo = relativeTo(wd, root)
		return nil
	}
	dir := ""
	for _, c := range configs {
		d := filepath.Dir(c)
		switch {
		case dir == "":
			dir = d
		case filepath.Clean(d) != filepath.Clean(dir):
			return badInput(fmt.Errorf("the configs are in %s and %s, and no git repository holds the working directory: pass --repo DIR", dir, d))
		}
	}
	if dir == "" {
		dir = "."
	}
	f.Repo = dir
	return nil
}

// relativeTo writes target relative to the working directory wd when it
// is an ancestor ("../.." reads better in messages than a long absolute
// path), else as it is.
func relativeTo(wd, target string) string {
	rel, err := filepath.Rel(wd, target)
	if err != nil {
		return target
	}
	return rel
}

// optional is the list of one optional argument.
func optional(arg string) []string {
	if arg == "" {
		return nil
	}
	return []string{arg}
}
