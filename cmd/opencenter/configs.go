package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/inrepo"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// configFiles returns the CONFIG arguments, or every .<cluster>-config.yaml
// at the root of repo when there are none. Each must be a regular file (a
// symbolic link to one is fine): a FIFO, device, socket or directory is bad
// input at once, never opened, since reading a FIFO would block for good.
// A config in the repository that is a symbolic link out of it (or lies
// behind one) is refused (exit 3).
func configFiles(repo string, args []string) ([]string, error) {
	found := args
	if len(found) == 0 {
		var err error
		if found, err = filepath.Glob(filepath.Join(repo, ".*-config.yaml")); err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, badInput(fmt.Errorf("no .<cluster>-config.yaml at the root of %s: pass CONFIG paths or --repo DIR", repo))
		}
		slices.Sort(found)
	}
	var bad diag.List
	var escapes []string
	for _, f := range found {
		if rel, inside := inrepo.Inside(repo, f); inside {
			// A config in the repository is never read through a link out of it.
			var esc *inrepo.EscapeError
			if _, err := inrepo.Stat(repo, rel); errors.As(err, &esc) {
				escapes = append(escapes, esc.Error())
				continue
			}
		}
		if err := yamlfile.Regular(f); err != nil {
			bad = append(bad, diag.Diag{File: f, Msg: err.Error()})
		}
	}
	if len(escapes) > 0 {
		return nil, &exitError{exitRefused, errors.New(strings.Join(escapes, "\nopencenter: "))}
	}
	if len(bad) > 0 {
		return nil, badInput(bad)
	}
	return found, nil
}
