package e2e

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the process should the harness itself
// die (a panic, a test timeout): no server outlives the run.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
