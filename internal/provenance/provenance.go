package provenance

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/opencenter-dev/opencenter/internal/worktree"
)

// Overlay is what is known of the provenance of one overlay's files.
type Overlay struct {
	repo, overlay string
	ledgerFile    string
	// written maps a file (relative to the overlay) to the hashes of the
	// contents opencenter wrote there, usually one; two while a write is
	// under way (Begin).
	written map[string][]string
	// next are the hashes of the write under way, "" for a deletion.
	next map[string]string

	gitOnce sync.Once
	// outsideGit are the files whose work-tree content git's index does
	// not hold: modified or untracked. A file git is merging is not one.
	outsideGit map[string]bool
	noGit      bool
}

// Open reads what is known of the overlay at overlay (a slash path in
// repo). A missing ledger is an empty one.
func Open(repo, overlay string) (*Overlay, error) {
	file, err := ledgerFile(repo, overlay)
	if err != nil {
		return nil, err
	}
	o := &Overlay{repo: repo, overlay: overlay, ledgerFile: file, written: map[string][]string{}}
	data, err := os.ReadFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return o, nil
	case err != nil:
		return nil, err
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		sum, p, ok := strings.Cut(s.Text(), " ")
		if ok && len(sum) == 2*hashSize {
			o.written[p] = append(o.written[p], sum)
		}
	}
	return o, nil
}

// HandEdited reports whether data, the content of the overlay's file at
// rel, is a hand edit: opencenter did not write it, and git does not hold
// it (in its index, or as a file it is merging: conflict markers and all).
func (o *Overlay) HandEdited(rel string, data []byte) bool {
	if o.Wrote(rel, data) {
		return false
	}
	o.gitOnce.Do(o.readGit)
	if o.noGit {
		return len(o.written[rel]) > 0
	}
	return o.outsideGit[rel]
}

// Wrote reports whether opencenter wrote exactly data at rel.
func (o *Overlay) Wrote(rel string, data []byte) bool {
	return slices.Contains(o.written[rel], hash(data))
}

// Begin records, before a write, that the files of next (contents by
// path, nil for a file to delete) are about to be written, keeping what
// was recorded before: a write stopped half way leaves files of both,
// and the next render knows either as its own.
func (o *Overlay) Begin(next map[string][]byte) error {
	o.next = make(map[string]string, len(next))
	for p, data := range next {
		if data == nil {
			o.next[p] = ""
			continue
		}
		sum := hash(data)
		o.next[p] = sum
		if !slices.Contains(o.written[p], sum) {
			o.written[p] = append(o.written[p], sum)
		}
	}
	return o.save()
}

// Commit records, once the write Begin announced is done, the files it
// wrote as their only recorded content, and forgets those it deleted.
func (o *Overlay) Commit() error {
	for p, sum := range o.next {
		if sum == "" {
			delete(o.written, p)
		} else {
			o.written[p] = []string{sum}
		}
	}
	o.next = nil
	return o.save()
}

// Forget removes the overlay's ledger (its files are gone).
func (o *Overlay) Forget() error {
	err := os.Remove(o.ledgerFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// save writes the ledger atomically: a line "hash path" per recorded
// content.
func (o *Overlay) save() error {
	var b []byte
	for _, p := range slices.Sorted(maps.Keys(o.written)) {
		for _, sum := range o.written[p] {
			b = append(append(append(append(b, sum...), ' '), p...), '\n')
		}
	}
	if err := os.MkdirAll(filepath.Dir(o.ledgerFile), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.ledgerFile), ".ledger-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), o.ledgerFile); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// readGit asks git which of the overlay's files it does not hold.
func (o *Overlay) readGit() {
	dir := filepath.Join(o.repo, filepath.FromSlash(o.overlay))
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		o.noGit = true
		return
	}
	out, err := git(dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=no", "--no-renames", "--", ".")
	if err != nil {
		o.noGit = true
		return
	}
	prefix = strings.TrimSpace(prefix)
	o.outsideGit = map[string]bool{}
	for _, entry := range strings.Split(out, "\x00") {
		if len(entry) < 4 {
			continue
		}
		// XY: the index against HEAD, then the work tree against the index.
		if xy := entry[:2]; xy == "??" || xy[1] == 'M' || xy[1] == 'T' {
			o.outsideGit[strings.TrimPrefix(entry[3:], prefix)] = true
		}
	}
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0") // a status must not take the index lock
	out, err := cmd.Output()
	return string(out), err
}

// ledgerFile is where the ledger of an overlay lives: in the git directory
// of the repository when it is in one, else in the temporary directory,
// named after the repository's absolute path.
func ledgerFile(repo, overlay string) (string, error) {
	abs, err := filepath.Abs(repo)
	if err != nil {
		return "", err
	}
	name := strings.ReplaceAll(path.Clean(overlay), "/", "%")
	if dir, ok := worktree.GitDir(abs); ok {
		return filepath.Join(dir, "opencenter", "ledger", name), nil
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(os.TempDir(), "opencenter-"+hex.EncodeToString(sum[:8]), "ledger", name), nil
}

// hashSize is how many bytes of a content's SHA-256 the ledger keeps:
// enough that no two contents of a file meet by chance.
const hashSize = 16

func hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:hashSize])
}
