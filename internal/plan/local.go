package plan

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/localoverlay"
	"github.com/opencenter-dev/opencenter/internal/overlay"
)

// KeepHint says where the hand edit of the owned file at rel, written for
// unit, belongs so that it survives renders: the unit's local/ file that
// does what it did, or its config fields (overlay.WriteOptions.Keep).
func (p *Plan) KeepHint(rel, unit string) string {
	u := unitByName(unit)
	if u == nil {
		return ""
	}
	explain := "opencenter explain " + strings.TrimPrefix(configPath(u), "opencenter.")
	if u.Root == "" || !strings.HasPrefix(rel, u.Root+"/") {
		return "set it through the config (" + explain + ")"
	}
	local := path.Join(p.Overlay, u.Root, overlay.LocalDir)
	if rel == path.Join(u.Root, valuesFile) {
		return "put the values in " + local + "/" + localoverlay.Values + ", laid over the generated Helm values, or set them through the config (" + explain + ")"
	}
	return "put it in " + local + "/kustomization.yaml, a kustomize Component that patches the unit's objects (or a kustomization of more of them), or set it through the config (" + explain + ")"
}

// readLocal reads the escape hatches of the active units from the
// repository on disk (none when the plan is built without a repository),
// never through a symbolic link that leaves it (b.escaped).
func (b *builder) readLocal(active []*catalog.Unit) {
	if b.o.Repo == "" {
		return
	}
	if _, err := os.Lstat(filepath.Join(b.o.Repo, filepath.FromSlash(b.p.Overlay))); errors.Is(err, fs.ErrNotExist) {
		b.newOverlay = true
		return // a new overlay: one system call, not one per unit and directory
	}
	// The units' roots, local values included, then the other directories
	// their Flux units apply.
	var dirs []localoverlay.Dir
	var owners []*catalog.Unit
	for _, u := range active {
		if u.Root != "" {
			dirs, owners = append(dirs, localoverlay.Dir{Path: u.Root, Values: true}), append(owners, u)
		}
	}
	roots := len(dirs)
	applied := b.appliedDirs(active)
	for _, d := range slices.Sorted(maps.Keys(applied)) {
		dirs, owners = append(dirs, localoverlay.Dir{Path: d}), append(owners, applied[d])
	}
	found, problems := localoverlay.Read(b.o.Repo, b.p.Overlay, dirs)
	for _, p := range problems {
		b.userFileError(owners[p.Dir], p.Err)
	}
	for i, l := range found {
		switch {
		case i < roots && l.Found():
			b.local[owners[i].Name] = l
		case i >= roots && l.Kustomization:
			b.localDirs[dirs[i].Path] = l.Component
		default:
			continue
		}
		b.include[joinRoot(dirs[i].Path, overlay.LocalDir)] = true // present, though the render does not produce it
	}
}

// userFileError reports a user's file that cannot be read, a refused
// symbolic link apart (Build's overlay.UnsafeError).
func (b *builder) userFileError(u *catalog.Unit, err error) {
	var esc *inrepo.EscapeError
	if errors.As(err, &esc) {
		b.escaped = append(b.escaped, esc.Error())
		return
	}
	b.errorf(u, "%v", err)
}

// appliedDirs lists the overlay directories, other than the standard units'
// roots (whose local/ readLocal reads with its values), that the active
// units' Flux units apply, each with its unit.
func (b *builder) appliedDirs(active []*catalog.Unit) map[string]*catalog.Unit {
	standard := map[string]bool{}
	for _, u := range active {
		for _, f := range u.Files {
			if f.Builtin == catalog.BuiltinStandard {
				standard[path.Dir(f.OverlayPath)] = true
			}
		}
	}
	dirs := map[string]*catalog.Unit{}
	for _, u := range active {
		for _, fu := range u.FluxUnits {
			if !fu.When.Holds(b.c) {
				continue
			}
			rel, ok := strings.CutPrefix(strings.TrimPrefix(b.expand(u, fu.Path), "./"), b.p.Overlay+"/")
			if ok && !standard[rel] {
				dirs[path.Clean(rel)] = u
			}
		}
	}
	return dirs
}

// listLocal adds local to the rendered (template) kustomization of every
// directory in localDirs.
func (b *builder) listLocal() {
	for _, d := range slices.Sorted(maps.Keys(b.localDirs)) {
		p := joinRoot(d, "kustomization.yaml")
		f, ok := b.files[p]
		if !ok {
			continue // the directory's kustomization is computed later, or absent
		}
		listed, err := localoverlay.List(overlay.Body(f.Data), b.localDirs[d])
		if err != nil {
			b.errorf(unitByName(f.Unit), "%s: %v", p, err)
		}
		if listed != nil {
			f.Data = overlay.WithHeader(b.cfgName(), f.Unit, listed)
		}
	}
}

// mergeLocalValues lays each standard unit's local values.yaml over its
// generated Helm values.
func (b *builder) mergeLocalValues(active []*catalog.Unit) {
	for _, u := range active {
		l, ok := b.local[u.Name]
		if !ok || l.Values == nil || u.ValuesSecret == "" {
			continue
		}
		p := joinRoot(u.Root, valuesFile)
		f, ok := b.files[p]
		if !ok {
			continue
		}
		merged, err := localoverlay.MergeValues(overlay.Body(f.Data), l.Values)
		var user *localoverlay.UserError
		switch {
		case errors.As(err, &user):
			b.errorf(u, "%s: %v: expected a YAML mapping of Helm values", filepath.Join(b.o.Repo, filepath.FromSlash(path.Join(b.p.Overlay, u.Root, overlay.LocalDir, localoverlay.Values))), err)
		case err != nil:
			b.errorf(u, "%s: %v", p, err)
		default:
			f.Data = overlay.WithHeader(b.cfgName(), u.Name, merged)
		}
	}
}
