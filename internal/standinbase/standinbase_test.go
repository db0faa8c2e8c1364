package standinbase

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
)

// TestStandInBaseMatchesIndex holds the stand-in base to the index it
// stands for: indexing it again gives the same directories, objects (less
// where a shared manifest lives), HelmReleases and remote resources.
func TestStandInBaseMatchesIndex(t *testing.T) {
	indexes, err := LoadIndexes(filepath.Join("..", "..", "descriptors", "base-index"))
	if err != nil {
		t.Fatal(err)
	}
	if len(indexes) == 0 {
		t.Fatal("no base index")
	}
	for _, x := range indexes {
		files, err := Files(x)
		if err != nil {
			t.Fatalf("%s: %v", x.Ref, err)
		}
		got, err := baseindex.Extract(x.Repo, x.Ref, x.Commit, files)
		if err != nil {
			t.Fatalf("%s: %v", x.Ref, err)
		}
		if len(got.Dirs) != len(x.Dirs) {
			t.Errorf("%s: %d directories, the index has %d", x.Ref, len(got.Dirs), len(x.Dirs))
			continue
		}
		for i, want := range x.Dirs {
			d := got.Dirs[i]
			if d.Path != want.Path {
				t.Errorf("%s: directory %d is %s, the index has %s", x.Ref, i, d.Path, want.Path)
				continue
			}
			if (d.Error != "") != (want.Error != "") {
				t.Errorf("%s: %s: build error %q, the index has %q", x.Ref, d.Path, d.Error, want.Error)
			}
			strip := func(os []baseindex.Object) []baseindex.Object {
				out := slices.Clone(os)
				for i := range out {
					out[i].Home = ""
				}
				return out
			}
			if !slices.Equal(strip(d.Objects), strip(want.Objects)) {
				t.Errorf("%s: %s: objects\n got %v\nwant %v", x.Ref, d.Path, d.Objects, want.Objects)
			}
			if !slices.EqualFunc(d.HelmReleases, want.HelmReleases, func(a, b baseindex.HelmRelease) bool {
				return a.Name == b.Name && a.Namespace == b.Namespace && a.Chart == b.Chart && a.Version == b.Version &&
					a.Release == b.Release && a.ReleaseNamespace == b.ReleaseNamespace && a.TargetNamespace == b.TargetNamespace &&
					a.Source == b.Source && slices.Equal(a.ValuesFrom, b.ValuesFrom)
			}) {
				t.Errorf("%s: %s: HelmReleases\n got %+v\nwant %+v", x.Ref, d.Path, d.HelmReleases, want.HelmReleases)
			}
			if !slices.Equal(d.Remote, want.Remote) {
				t.Errorf("%s: %s: remote\n got %v\nwant %v", x.Ref, d.Path, d.Remote, want.Remote)
			}
		}
	}
}
