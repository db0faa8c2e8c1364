// Command baseindex extracts the index of a base repository
// (openCenter-gitops-base) at one ref from a local checkout, read through
// git, and writes it to descriptors/base-index/<ref>.json, where the
// generator reads it. Run it again when the catalog supports a new base
// release:
//
//	go run ./gen/baseindex -checkout ../openCenter-gitops-base -ref 2026.01
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/gitrepo"
)

func main() {
	checkout := flag.String("checkout", "", "local checkout (or bare git dir) of the base repository")
	ref := flag.String("ref", "", "tag or branch to index")
	repo := flag.String("repo-url", "https://github.com/opencenter-cloud/openCenter-gitops-base.git", "the repository's URL, recorded as provenance")
	out := flag.String("out", "descriptors/base-index", "folder the index is written to, as <ref>.json")
	flag.Parse()
	if *checkout == "" || *ref == "" {
		fmt.Fprintln(os.Stderr, "usage: baseindex -checkout DIR -ref REF [-repo-url URL] [-out DIR]")
		os.Exit(2)
	}
	if err := run(*checkout, *ref, *repo, *out); err != nil {
		fmt.Fprintln(os.Stderr, "baseindex:", err)
		os.Exit(1)
	}
}

func run(checkout, ref, repo, out string) error {
	snap, err := gitrepo.Read(checkout, ref, baseindex.Root)
	if err != nil {
		return err
	}
	x, err := baseindex.Extract(repo, ref, snap.Commit, snap.Files)
	if err != nil {
		return err
	}
	if _, tag := gitrepo.ResolveExact(checkout, gitrepo.TagRef(ref)); !tag {
		if _, branch := gitrepo.ResolveExact(checkout, gitrepo.BranchRefs(ref)...); !branch {
			return fmt.Errorf("%s is neither a tag nor a branch of %s", ref, checkout)
		}
		x.Branch = true
	}
	data, err := baseindex.Marshal(x)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	file := filepath.Join(out, ref+".json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d directories at %s (%s)\n", file, len(x.Dirs), ref, snap.Commit[:12])
	return nil
}
