package localoverlay

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/helmvalues"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// Values is the file of a local directory holding user Helm values.
const Values = "values.yaml"

// Dir is an overlay directory whose local/ a plan reads.
type Dir struct {
	// Path is the directory, relative to the overlay.
	Path string
	// Values: its local/values.yaml is read too (a standard unit's root).
	Values bool
}

// Local is what a local directory holds.
type Local struct {
	// Kustomization: local/kustomization.yaml is there; Component: it is a
	// kustomize Component.
	Kustomization, Component bool
	// Values is local/values.yaml, nil when it is not there (or not read).
	Values []byte
}

// Found reports whether the directory holds anything a plan wires in.
func (l Local) Found() bool { return l.Kustomization || l.Values != nil }

// Problem is a local file that cannot be read. Err is an
// *inrepo.EscapeError for a symbolic link out of the repository.
type Problem struct {
	// Dir is the index, in the dirs given to Read, of the directory.
	Dir int
	Err error
}

// Read reads the local/ directory of each of dirs in the overlay (a path
// in the repository) under repo. The result is aligned with dirs.
func Read(repo, overlayDir string, dirs []Dir) ([]Local, []Problem) {
	out := make([]Local, len(dirs))
	var problems []Problem
	for i, d := range dirs {
		dir := path.Join(overlayDir, d.Path, overlay.LocalDir)
		report := func(err error) { problems = append(problems, Problem{i, err}) }
		if _, err := inrepo.Stat(repo, dir); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				report(err)
			}
			continue // the common case: one look, not one per file
		}
		if data, err := readUser(repo, path.Join(dir, "kustomization.yaml")); err != nil {
			report(err)
		} else if data != nil {
			var head struct {
				Kind string `yaml:"kind"`
			}
			if err := Decode(data, &head); err != nil {
				report(fmt.Errorf("%s: %w", path.Join(repo, dir, "kustomization.yaml"), err))
			}
			out[i].Kustomization, out[i].Component = true, head.Kind == "Component"
		}
		if d.Values {
			data, err := readUser(repo, path.Join(dir, Values))
			if err != nil {
				report(err)
			}
			out[i].Values = data
		}
	}
	return out, problems
}

// readUser reads the user's file at p, a path in the repository: nil and
// no error when it is not there.
func readUser(repo, p string) ([]byte, error) {
	data, err := inrepo.ReadFile(repo, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// Decode decodes a user's YAML file into out, a mapping, with an error
// that places the problem but never quotes the file: yaml.v3's own errors
// may hold its text.
func Decode(data []byte, out any) error {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return contentFree(err, "not valid YAML")
	}
	if len(n.Content) == 0 {
		return nil // empty
	}
	if root := n.Content[0]; root.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: not a YAML mapping", root.Line)
	}
	if err := n.Decode(out); err != nil {
		return contentFree(err, "a key or value of an unexpected type")
	}
	return nil
}

// yamlLine finds the line yaml.v3 gives a problem.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// contentFree is what a yaml.v3 error says about where it is, with what.
func contentFree(err error, what string) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("line %s: %s", m[1], what)
	}
	return errors.New(what)
}

// List adds local to a rendered kustomization (its body, after the
// ownership header): as a component when component is set, else as a
// resource. The kustomization's leading comment is kept. It returns nil
// when local is listed already.
func List(kustomization []byte, component bool) ([]byte, error) {
	var k map[string]any
	if err := decodeOwn(kustomization, &k); err != nil || k == nil {
		return nil, fmt.Errorf("adding %s: not a kustomization: %v", overlay.LocalDir, err)
	}
	key := "resources"
	if component {
		key = "components"
	}
	list, _ := k[key].([]any)
	if slices.Contains(list, any(overlay.LocalDir)) {
		return nil, nil
	}
	k[key] = append(list, overlay.LocalDir)
	var out []byte
	for _, l := range strings.SplitAfter(string(kustomization), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		out = append(out, l...)
	}
	out = fmt.Appendf(out, "# With the user's %s/ listed.\n", overlay.LocalDir)
	return append(out, yamlenc.Marshal(k)...), nil
}

// MergeValues lays the user's local values over generated Helm values
// (a file's body): mappings merge key by key, anything else is replaced by
// the user's value. A problem with the user's file is a *UserError.
func MergeValues(generated, user []byte) ([]byte, error) {
	var gen, usr map[string]any
	if err := decodeOwn(generated, &gen); err != nil {
		return nil, err
	}
	if err := Decode(user, &usr); err != nil {
		return nil, &UserError{err}
	}
	merged := helmvalues.Merge(gen, usr)
	note := fmt.Appendf(nil, "# Generated values with %s/%s laid over them.\n", overlay.LocalDir, Values)
	return append(note, yamlenc.Marshal(merged)...), nil
}

// decodeOwn decodes a document opencenter wrote into out; an empty or
// null one leaves out unset, as yaml.Unmarshal does.
func decodeOwn(data []byte, out any) error {
	docs, err := yamlfile.ParseAll("", data)
	switch {
	case err != nil:
		return err
	case len(docs) == 0:
		return nil
	case len(docs) > 1:
		return errors.New("more than one YAML document")
	}
	return docs[0].Decode(out)
}

// UserError is a problem with the user's file, which the message places
// without quoting it.
type UserError struct{ Err error }

func (e *UserError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e *UserError) Unwrap() error { return e.Err }
