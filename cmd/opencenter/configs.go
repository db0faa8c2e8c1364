package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// configFiles returns the CONFIG arguments, or every .<cluster>-config.yaml
// at the root of repo when there are none. Each must be a regular file (a
// symbolic link to one is fine): a FIFO, device, socket or directory is bad
// input at once, never opened, since reading a FIFO would block for good.
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
	for _, f := range found {
		if err := yamlfile.Regular(f); err != nil {
			bad = append(bad, diag.Diag{File: f, Msg: err.Error()})
		}
	}
	if len(bad) > 0 {
		return nil, badInput(bad)
	}
	return found, nil
}
