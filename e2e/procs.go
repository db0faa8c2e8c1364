package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Procs are the processes the harness started. Stop ends each of them by
// its PID (SIGTERM, then SIGKILL after a grace period), whatever the
// outcome of the run; nothing else on the machine is signalled.
type Procs struct {
	mu    sync.Mutex
	procs []*Proc
}

// Proc is one started process.
type Proc struct {
	Name string
	Cmd  *exec.Cmd
	Log  string
	done chan struct{}
	err  error
}

// Start runs bin with args, its stdout and stderr going to logDir/name.log.
func (ps *Procs) Start(logDir, name string, env []string, bin string, args ...string) (*Proc, error) {
	logFile := filepath.Join(logDir, name+".log")
	f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(f, "# %s %q\n", bin, args)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Proc{Name: name, Cmd: cmd, Log: logFile, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	ps.mu.Lock()
	ps.procs = append(ps.procs, p)
	ps.mu.Unlock()
	return p, nil
}

// Exited reports whether the process has ended, and how.
func (p *Proc) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Stop ends the process by its PID: SIGTERM, then SIGKILL after grace.
func (p *Proc) Stop(grace time.Duration) {
	if ok, _ := p.Exited(); ok {
		return
	}
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = p.Cmd.Process.Kill()
		<-p.done
	}
}

// Stop ends every process still running, the last started first.
func (ps *Procs) Stop() {
	ps.mu.Lock()
	procs := ps.procs
	ps.procs = nil
	ps.mu.Unlock()
	for i := len(procs) - 1; i >= 0; i-- {
		procs[i].Stop(10 * time.Second)
	}
}

// waitFor polls check every interval until it returns nil or timeout
// passes, failing early when one of procs has exited.
func waitFor(timeout, interval time.Duration, what string, check func() error, procs ...*Proc) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		for _, p := range procs {
			if ok, err := p.Exited(); ok {
				return fmt.Errorf("%s: %s exited (%v); see %s", what, p.Name, err, p.Log)
			}
		}
		if last = check(); last == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not after %s: %w", what, timeout, last)
		}
		time.Sleep(interval)
	}
}

var errNotYet = errors.New("not yet")
