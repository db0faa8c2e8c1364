package main

import (
	"fmt"
	"path/filepath"
	"slices"
)

// configFiles returns the CONFIG arguments, or every .<cluster>-config.yaml
// at the root of repo when there are none.
func configFiles(repo string, args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	found, err := filepath.Glob(filepath.Join(repo, ".*-config.yaml"))
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, badInput(fmt.Errorf("no .<cluster>-config.yaml at the root of %s: pass CONFIG paths or --repo DIR", repo))
	}
	slices.Sort(found)
	return found, nil
}
