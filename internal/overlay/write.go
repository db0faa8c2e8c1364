package overlay

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/provenance"
	"github.com/opencenter-dev/opencenter/internal/sops"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// OwnedFiles are the files at the overlay root the renderer owns; OwnedDirs
// the directories it owns entirely. Everything else, flux-system/ above all,
// is never read, written or deleted.
var (
	OwnedFiles = []string{"kustomization.yaml", ".sops.yaml"}
	OwnedDirs  = []string{"services", "managed-services", "customer-managed"}
)

// Op is what a change does to a file.
type Op string

// The operations of a change.
const (
	OpCreate Op = "create"
	OpUpdate Op = "update"
	OpDelete Op = "delete"
	// OpMode only restores a file's mode (a Secret checked out by git as
	// 0644): not a difference for --check and --diff, since git keeps no modes.
	OpMode Op = "mode"
	// OpUnchecked is an encrypted file that is present, owned and encrypted
	// for the right recipients, but whose content was not compared: no key
	// opened the config's secrets. Not a difference.
	OpUnchecked Op = "not compared (no key)"
)

// Change is one file the render would create, update or delete.
type Change struct {
	// Path relative to the overlay root.
	Path string
	Op   Op
	Old  []byte
	New  []byte
	Mode fs.FileMode
	// Unconfirmed marks the update of an encrypted file that could not be
	// compared with the file on disk (File.Unconfirmed): a write replaces
	// it, but it is not a difference for --check and --diff.
	Unconfirmed bool
	// Adopted marks the update or deletion of a foreign file (WriteOptions.Adopt).
	Adopted bool
}

// Refusal is a file the render would overwrite or delete but did not write.
type Refusal struct {
	Path  string
	State Ownership
	Op    Op
	// Old is the file on disk; New what the render would write, nil for a
	// deletion.
	Old, New []byte
	// Keep says where a hand edit belongs to survive renders: the unit's
	// local/ file that does what it did, or its config fields ("" for a
	// foreign file).
	Keep string
}

// RefusedError lists the files a render refused to touch (exit code 3).
type RefusedError struct {
	Overlay string
	Files   []Refusal
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: refusing to overwrite or delete files opencenter did not write or that were edited by hand; nothing was written:", e.Overlay)
	for _, r := range e.Files {
		fmt.Fprintf(&b, "\n  %s/%s: %s, would %s", e.Overlay, r.Path, r.State, r.Op)
		if r.Keep != "" {
			fmt.Fprintf(&b, "\n    to keep the change: %s", r.Keep)
		}
	}
	b.WriteString("\nrender --diff shows what would change; render --adopt replaces the files another tool wrote (docs/user/migrating-from-opencenter-cli.md); --force overwrites or deletes them anyway")
	return b.String()
}

// Changes are the refused files as the changes a forced render would
// make, for --check and --diff to show.
func (e *RefusedError) Changes() []Change {
	out := make([]Change, 0, len(e.Files))
	for _, r := range e.Files {
		if r.Old != nil || r.New != nil {
			out = append(out, Change{Path: r.Path, Op: r.Op, Old: r.Old, New: r.New})
		}
	}
	return out
}

func (o WriteOptions) keep(rel, unit string) string {
	if o.Keep == nil {
		return ""
	}
	return o.Keep(rel, unit)
}

// UnsafeError is a target path that cannot be written safely (exit code 3).
type UnsafeError struct{ Msg string }

func (e *UnsafeError) Error() string { return e.Msg }

// WriteOptions control how a tree meets the disk.
type WriteOptions struct {
	// Force overwrites and deletes foreign and hand-edited files.
	Force bool
	// Adopt replaces and deletes foreign files (another tool's overlay);
	// hand-edited files stay refused.
	Adopt bool
	// Only restricts the render to one unit's files plus the aggregates.
	Only string
	// Keep says where the hand edit of the owned file at rel, written for
	// unit, belongs so that it survives renders (Refusal.Keep); nil: nowhere.
	Keep func(rel, unit string) string
}

// Diff compares a tree with the overlay under repo and returns the changes
// a write would make, sorted by path. It reads only owned paths and writes
// nothing. Files it would overwrite or delete but may not (foreign, edited
// by hand) make a *RefusedError, returned with the other changes, which a
// caller must then not apply.
func Diff(repo string, p *Tree, o WriteOptions) ([]Change, error) {
	root := filepath.Join(repo, filepath.FromSlash(p.Overlay))
	// One checker from the repository down: the overlay path and every
	// file's directory, each directory looked at once.
	dirs := dirChecker{root: repo, state: map[string]dirState{}}
	overlay, err := dirs.check(p.Overlay)
	if err != nil {
		return nil, err
	}
	// What the walk of the owned paths found, and the same by path (its
	// directories too: a directory where a file goes is refused).
	var disk []diskFile
	var listed map[string]*diskFile
	untidy := true
	if overlay { // a new overlay has nothing on disk to compare or delete
		var dirs []string
		if disk, dirs, untidy, err = ownedOnDisk(root); err != nil {
			return nil, err
		}
		if !untidy {
			if untidy, err = tempInRoot(root); err != nil {
				return nil, err
			}
		}
		listed = make(map[string]*diskFile, len(disk)+len(dirs))
		for i := range disk {
			listed[disk[i].path] = &disk[i]
		}
		for _, d := range dirs {
			listed[d] = &diskFile{path: d, state: Foreign, irregular: true}
		}
	}
	changes := make([]Change, 0, len(p.Files))
	var refused []Refusal
	// Where the files on disk came from, read when a changed file needs it.
	var prov *provenance.Overlay
	handEdited := func(rel string, data []byte) (bool, error) {
		if prov == nil {
			var err error
			if prov, err = provenance.Open(repo, p.Overlay); err != nil {
				return false, err
			}
		}
		return prov.HandEdited(rel, data), nil
	}
	for i := range p.Files {
		f := &p.Files[i]
		if o.Only != "" && f.Unit != o.Only && !f.Aggregate {
			continue
		}
		mode := fs.FileMode(0o644)
		if f.Secret {
			mode = 0o600
		}
		data := f.Data
		if f.Unverified {
			data = nil // placeholders: what would be written is not known
		}
		if !overlay {
			changes = append(changes, Change{Path: f.Path, Op: OpCreate, New: data, Mode: mode})
			continue
		}
		exists, err := dirs.check(path.Join(p.Overlay, path.Dir(f.Path)))
		if err != nil {
			return nil, err
		}
		if !exists {
			// Nothing can be in a directory that is not there: no stat needed.
			changes = append(changes, Change{Path: f.Path, Op: OpCreate, New: data, Mode: mode})
			continue
		}
		// The walk of the owned paths has read what is there; a path it
		// covers and did not find is not there.
		d, ok := listed[f.Path]
		if !ok && !inOwnedWalk(f.Path) {
			var found diskFile
			if found, ok, err = lookAt(filepath.Join(root, filepath.FromSlash(f.Path)), f.Path); err != nil {
				return nil, err
			}
			d = &found
		}
		if !ok {
			changes = append(changes, Change{Path: f.Path, Op: OpCreate, New: data, Mode: mode})
			continue
		}
		if d.irregular {
			refused = append(refused, Refusal{Path: f.Path, State: Foreign, Op: OpUpdate})
			continue
		}
		old := d.data
		st, unit := Owner(old)
		same := bytes.Equal(old, f.Data) // an unchanged secret keeps its bytes (unchangedSecret)
		if f.Unverified && st == Owned && sameRecipients(Body(old), f.Recipients) {
			changes = append(changes, Change{Path: f.Path, Op: OpUnchecked})
			continue
		}
		if same && !f.Unverified {
			if d.perm != mode {
				changes = append(changes, Change{Path: f.Path, Op: OpMode, Mode: mode})
			}
			continue
		}
		if st == Owned && !o.Force {
			edited, err := handEdited(f.Path, old)
			if err != nil {
				return nil, err
			}
			if edited {
				refused = append(refused, Refusal{Path: f.Path, State: Edited, Op: OpUpdate, Old: old, New: data, Keep: o.keep(f.Path, unit)})
				continue
			}
		}
		adopt := st == Foreign && o.Adopt
		if st != Owned && !o.Force && !adopt {
			refused = append(refused, Refusal{Path: f.Path, State: st, Op: OpUpdate, Old: old, New: data})
			continue
		}
		changes = append(changes, Change{Path: f.Path, Op: OpUpdate, Old: old, New: data, Mode: mode, Unconfirmed: f.Unconfirmed && st == Owned, Adopted: st == Foreign})
	}
	for _, d := range disk {
		if _, ok := p.File(d.path); ok {
			continue
		}
		st, unit := d.state, d.unit
		if o.Only != "" && unit != o.Only {
			continue
		}
		if st == Owned && !o.Force {
			edited, err := handEdited(d.path, d.data)
			if err != nil {
				return nil, err
			}
			if edited {
				st = Edited
			}
		}
		if st != Owned && !o.Force && !(st == Foreign && o.Adopt && !d.irregular) {
			refused = append(refused, Refusal{Path: d.path, State: st, Op: OpDelete, Old: d.data})
			continue
		}
		changes = append(changes, Change{Path: d.path, Op: OpDelete, Old: d.data, Adopted: st == Foreign})
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	p.tidy = !untidy
	if len(refused) > 0 {
		slices.SortFunc(refused, func(a, b Refusal) int { return strings.Compare(a.Path, b.Path) })
		return changes, &RefusedError{Overlay: p.Overlay, Files: refused}
	}
	return changes, nil
}

type diskFile struct {
	path  string
	data  []byte
	state Ownership
	unit  string
	// perm is a regular file's permission bits. irregular marks anything
	// else (a symbolic link, a directory), which is never read or written.
	perm      fs.FileMode
	irregular bool
}

// ownedOnDisk reads every file under the owned paths of the overlay root,
// and lists the directories below them. untidy reports what Tidy would
// remove: a temporary file, or an empty directory, under them.
func ownedOnDisk(root string) (files []diskFile, dirs []string, untidy bool, err error) {
	add := func(rel string) error {
		d, ok, err := lookAt(filepath.Join(root, filepath.FromSlash(rel)), rel)
		if ok {
			files = append(files, d)
		}
		return err
	}
	for _, f := range OwnedFiles {
		if err := add(f); err != nil {
			return nil, nil, false, err
		}
	}
	// The walk goes depth first in name order: a directory is empty when
	// the entry after it is not inside it.
	var last string // the directory visited last, while nothing is known inside it
	err = walkOwned(root, func(rel string, e fs.DirEntry) error {
		if last != "" && !strings.HasPrefix(rel, last+"/") {
			untidy = true
		}
		last = ""
		switch {
		case e.IsDir() && e.Name() == LocalDir:
			return filepath.SkipDir // the user's escape hatch: never read, compared or deleted
		case e.IsDir():
			dirs, last = append(dirs, rel), rel
			return nil
		case isTemp(e.Name()):
			untidy = untidy || leftover(e, false) // Tidy removes it
			return nil
		}
		return add(rel)
	})
	return files, dirs, untidy || last != "", err
}

// lookAt reads the file at full (rel under the overlay root) as
// ownedOnDisk lists it; found is false when there is nothing there.
func lookAt(full, rel string) (d diskFile, found bool, err error) {
	info, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	if !info.Mode().IsRegular() {
		return diskFile{path: rel, state: Foreign, irregular: true}, true, nil
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return d, false, err
	}
	st, unit := Owner(data)
	return diskFile{path: rel, data: data, state: st, unit: unit, perm: info.Mode().Perm()}, true, nil
}

// inOwnedWalk reports whether ownedOnDisk lists the file at rel when it is
// there: an owned file of the root, or a file in an owned directory outside
// a local/ one.
func inOwnedWalk(rel string) bool {
	if slices.Contains(OwnedFiles, rel) {
		return true
	}
	top, _, nested := strings.Cut(rel, "/")
	return nested && slices.Contains(OwnedDirs, top) && !IsLocal(rel) && !isTemp(path.Base(rel))
}

// walkOwned walks the owned directories of an overlay root, giving fn slash
// paths relative to the root; a directory that is not there is skipped.
func walkOwned(root string, fn func(rel string, e fs.DirEntry) error) error {
	for _, d := range OwnedDirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			rel, _ := filepath.Rel(root, p)
			return fn(filepath.ToSlash(rel), e)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type dirState int

const (
	dirUnknown dirState = iota
	dirExists
	dirMissing
)

// dirChecker checks each directory of the overlay once: it must be a real
// directory (not a symlink) or not exist yet.
type dirChecker struct {
	root  string
	state map[string]dirState
}

// check reports whether dir (relative, slash-separated) exists, refusing
// symbolic links and non-directories along the way.
func (d *dirChecker) check(dir string) (bool, error) {
	if dir == "." || dir == "" {
		return true, nil
	}
	switch d.state[dir] {
	case dirExists:
		return true, nil
	case dirMissing:
		return false, nil
	}
	if ok, err := d.check(path.Dir(dir)); err != nil || !ok {
		if err == nil {
			d.state[dir] = dirMissing
		}
		return false, err
	}
	full := filepath.Join(d.root, filepath.FromSlash(dir))
	info, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.state[dir] = dirMissing
		return false, nil
	case err != nil:
		return false, err
	case info.Mode()&fs.ModeSymlink != 0:
		return false, &UnsafeError{Msg: fmt.Sprintf("%s is a symbolic link: opencenter writes only to real directories inside the repository; nothing was written", full)}
	case !info.IsDir():
		return false, &UnsafeError{Msg: fmt.Sprintf("%s is not a directory; nothing was written", full)}
	}
	d.state[dir] = dirExists
	return true, nil
}

// Apply writes changes under the overlay of p in path order: each file to a
// temporary file in its directory, then renamed over the target, so a reader
// sees the old or the new file, never a partial one (a new overlay is staged
// as a whole instead: applyFresh). There is no fsync per
// file; durability is that of the file system's rename. Afterwards it removes
// temporary files that interrupted renders left and prunes owned directories
// left empty, so a render after a crash converges without --force. The
// caller holds the repository lock (repolock), so no temporary file under
// the overlay belongs to a live process.
func Apply(repo string, p *Tree, changes []Change) error {
	for _, c := range changes {
		if (c.Op == OpCreate || c.Op == OpUpdate) && c.New == nil {
			return fmt.Errorf("%s/%s: the config's secrets are encrypted and no key opened them, so this secret file cannot be written: set %s", p.Overlay, c.Path, sops.KeyFileEnv)
		}
	}
	// The ledger knows the new contents before any is written, and the old
	// too until all are: a render stopped half way leaves files of both.
	written := map[string][]byte{}
	for _, c := range changes {
		switch c.Op {
		case OpCreate, OpUpdate:
			written[c.Path] = c.New
		case OpDelete:
			written[c.Path] = nil
		}
	}
	if len(written) == 0 {
		return apply(repo, p, changes) // modes at most
	}
	ledger, err := provenance.Open(repo, p.Overlay)
	if err != nil {
		return err
	}
	if err := ledger.Begin(written); err != nil {
		return fmt.Errorf("recording what this render writes: %w", err)
	}
	if err := apply(repo, p, changes); err != nil {
		return err
	}
	return ledger.Commit()
}

// apply is Apply's writing.
func apply(repo string, p *Tree, changes []Change) error {
	root := filepath.Join(repo, filepath.FromSlash(p.Overlay))
	_, err := os.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) && allCreates(changes) {
		return applyFresh(root, changes)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if err := step("mkdir"); err != nil {
			return err
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
	}
	made := newDirMaker(root)
	for _, c := range changes {
		full := root + string(filepath.Separator) + filepath.FromSlash(c.Path) // clean: Build checked it
		switch c.Op {
		case OpDelete:
			if err := step("remove"); err != nil {
				return err
			}
			if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			continue
		case OpMode:
			if err := step("chmod"); err != nil {
				return err
			}
			if err := os.Chmod(full, c.Mode); err != nil {
				return err
			}
			continue
		case OpUnchecked:
			continue
		}
		if err := made.parentOf(full); err != nil {
			return err
		}
		if err := writeAtomic(full, c.New, c.Mode); err != nil {
			return err
		}
	}
	if p.tidy && !slices.ContainsFunc(changes, func(c Change) bool { return c.Op == OpDelete }) {
		return nil // Diff found nothing for Tidy, and only a deletion can empty a directory
	}
	return Tidy(root)
}

func allCreates(changes []Change) bool {
	for _, c := range changes {
		if c.Op != OpCreate {
			return false
		}
	}
	return true
}

// applyFresh writes a new overlay: every file into a staging directory
// inside the new root, then each of the root's entries renamed into place.
// A file is written once, under its final name, with no temporary file and
// rename of its own: a few renames for the whole tree instead of one per
// file. After a crash the root holds the staging directory and the entries
// already moved, all owned files; the next render takes Apply's other path,
// which writes what is missing and whose Tidy removes the staging directory.
func applyFresh(root string, changes []Change) error {
	if err := step("mkdir"); err != nil {
		return err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	stage, err := createTempDir(root)
	if err != nil {
		return err
	}
	made := newDirMaker(stage)
	var top []string // the root's entries, in order
	for _, c := range changes {
		if first, _, _ := strings.Cut(c.Path, "/"); !slices.Contains(top, first) {
			top = append(top, first)
		}
		full := stage + string(filepath.Separator) + filepath.FromSlash(c.Path) // clean: Build checked it
		if err := made.parentOf(full); err != nil {
			return err
		}
		if err := writeNew(full, c.New, c.Mode); err != nil {
			return err
		}
	}
	for _, name := range top {
		if err := step("rename"); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(stage, name), filepath.Join(root, name)); err != nil {
			return err
		}
	}
	if err := step("rmdir"); err != nil {
		return err
	}
	return os.Remove(stage)
}

// tmpPrefix and tmpSuffix make the temporary files of a render unique per
// process and recognisable: .opencenter-<pid>-<random>.tmp.
const (
	tmpPrefix = ".opencenter-"
	tmpSuffix = ".tmp"
)

func isTemp(name string) bool {
	return strings.HasPrefix(name, tmpPrefix) && strings.HasSuffix(name, tmpSuffix)
}

// tempInRoot reports whether the overlay root holds what Tidy removes
// there: a temporary file, or the staging directory of a first render.
func tempInRoot(root string) (bool, error) {
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return leftover(e, true) }), nil
}

// leftover reports whether Tidy removes the entry e: a temporary file of
// an interrupted render, or at the overlay root the staging directory of
// an interrupted first render (applyFresh).
func leftover(e fs.DirEntry, atRoot bool) bool {
	return isTemp(e.Name()) && (e.Type().IsRegular() || atRoot && e.IsDir())
}

// Tidy removes the temporary files interrupted renders left under the owned
// paths of an overlay root and the owned directories that are empty. Call it
// only under the repository lock.
func Tidy(root string) error {
	// The overlay root holds the temporary files of its own owned files.
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if !leftover(e, true) {
			continue
		}
		remove := os.Remove
		if e.IsDir() {
			remove = os.RemoveAll
		}
		if err := remove(filepath.Join(root, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	var dirs []string
	err = walkOwned(root, func(rel string, e fs.DirEntry) error {
		full := filepath.Join(root, filepath.FromSlash(rel))
		switch {
		case e.IsDir() && e.Name() == LocalDir:
			return filepath.SkipDir // the user's, even when empty
		case e.IsDir():
			dirs = append(dirs, full)
		case leftover(e, false):
			if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Deepest first, so a directory emptied by pruning its children goes too.
	slices.SortFunc(dirs, func(a, b string) int {
		return strings.Count(b, string(filepath.Separator)) - strings.Count(a, string(filepath.Separator))
	})
	for _, dir := range dirs {
		os.Remove(dir) // fails, as it should, when the directory is not empty
	}
	return nil
}

// Differences drops the changes that only restore a mode and those of
// encrypted files that could not be compared: what --check and --diff
// report as differences.
func Differences(changes []Change) []Change {
	out := make([]Change, 0, len(changes))
	for _, c := range changes {
		if c.Op != OpMode && c.Op != OpUnchecked && !c.Unconfirmed {
			out = append(out, c)
		}
	}
	return out
}

// sameRecipients reports whether data is SOPS-encrypted for exactly the
// given recipients.
func sameRecipients(data []byte, want []string) bool {
	// Through the bounded parser: the file is on disk, anyone may have made it.
	root, err := yamlfile.Parse("", data)
	if err != nil {
		return false
	}
	m, err := sops.ReadNodeMetadata(root)
	if err != nil {
		return false
	}
	got := slices.Clone(m.Recipients)
	want = slices.Clone(want)
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want)
}

// Orphan is an overlay that holds files opencenter wrote but that no config
// names any more.
type Orphan struct {
	// Cluster is the overlay directory's name; Overlay its path in the repository.
	Cluster, Overlay string
	// Owned are the files opencenter wrote and nobody changed since; Kept the
	// others (foreign, or edited by hand), which pruning leaves.
	Owned, Kept []string
}

// Orphans lists the overlays under applications/overlays/ whose cluster is
// not in named and that hold files opencenter wrote.
func Orphans(repo string, named map[string]bool) ([]Orphan, error) {
	entries, err := os.ReadDir(filepath.Join(repo, "applications", "overlays"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Orphan
	for _, e := range entries {
		if !e.IsDir() || named[e.Name()] {
			continue
		}
		o := Orphan{Cluster: e.Name(), Overlay: Dir(e.Name())}
		disk, _, _, err := ownedOnDisk(filepath.Join(repo, filepath.FromSlash(o.Overlay)))
		if err != nil {
			return nil, err
		}
		prov, err := provenance.Open(repo, o.Overlay)
		if err != nil {
			return nil, err
		}
		for _, d := range disk {
			if d.state == Owned && !prov.HandEdited(d.path, d.data) {
				o.Owned = append(o.Owned, d.path)
			} else {
				o.Kept = append(o.Kept, d.path)
			}
		}
		if len(o.Owned) > 0 {
			out = append(out, o)
		}
	}
	return out, nil
}

// Prune deletes the owned files of an orphan overlay, then its temporary
// files and empty owned directories; everything else stays, flux-system/
// included. Call it under the repository lock.
func Prune(repo string, o Orphan) error {
	root := filepath.Join(repo, filepath.FromSlash(o.Overlay))
	for _, p := range o.Owned {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := Tidy(root); err != nil {
		return err
	}
	os.Remove(root) // only when nothing else is left in it
	prov, err := provenance.Open(repo, o.Overlay)
	if err != nil {
		return err
	}
	if len(o.Kept) == 0 {
		return prov.Forget()
	}
	gone := map[string][]byte{}
	for _, p := range o.Owned {
		gone[p] = nil
	}
	if err := prov.Begin(gone); err != nil {
		return err
	}
	return prov.Commit()
}
