package e2e

import (
	"os"
	"path/filepath"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/standinbase"
)

// The base repository as the overlays name it, and where the harness
// serves it.
const (
	baseOwner = "opencenter-cloud"
	baseName  = "openCenter-gitops-base"
)

// importBase fetches the tags and branches of a checkout (or bare git
// directory) of the base repository into bare. A checkout's
// remote-tracking branches of origin count as branches: a clone has main
// only as origin/main.
func importBase(checkout, bare string) error {
	_, err := git(bare, "fetch", "--quiet", "--no-write-fetch-head", checkout,
		"+refs/remotes/origin/*:refs/heads/*", "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
	if err != nil {
		return err
	}
	// origin/HEAD comes along as a branch named HEAD, which is no branch.
	_, _ = git(bare, "update-ref", "-d", "refs/heads/HEAD")
	return nil
}

// synthesizeBase writes, for each index, a stand-in of the base repository
// at that ref into bare (a tag, or a branch for an index of a branch):
// every directory the index lists, with a kustomization.yaml building the
// objects it lists (same kinds, names, namespaces; HelmReleases with their
// chart, version, source and valuesFrom; the generated values Secrets with
// their keys) and the remote resources it names, which fail offline as the
// real ones do. Spec content the index does not hold is minimal.
func synthesizeBase(indexes []*baseindex.Index, work, bare string) error {
	for _, x := range indexes {
		dir := filepath.Join(work, "base-"+x.Ref)
		files, err := standinbase.Files(x)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := writeTree(dir, files); err != nil {
			return err
		}
		ref := "refs/tags/" + x.Ref
		if x.Branch {
			ref = "refs/heads/" + x.Ref
		}
		if _, err := commitTree(dir, bare, "stand-in of the base repository at "+x.Ref+" ("+x.Commit+"), from opencenter's index", ref); err != nil {
			return err
		}
	}
	return nil
}
