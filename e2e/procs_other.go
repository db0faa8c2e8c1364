//go:build !linux

package e2e

import "os/exec"

// dieWithParent does nothing where the kernel offers no parent-death
// signal: Procs.Stop still ends every process when the harness returns.
func dieWithParent(cmd *exec.Cmd) {}
