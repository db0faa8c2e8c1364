package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// editorGrace is how long an editor sent SIGTERM or SIGHUP may take to
// stop before it is killed.
const editorGrace = 10 * time.Second

// editInPrivate opens data in $EDITOR (vi when unset) as a file named name
// and returns what the editor saved. The file lives in a directory only
// the user can enter, under $XDG_RUNTIME_DIR when it is set (a tmpfs of
// the user's own on most Linux systems), else the temporary directory, and
// that directory is removed on every way out.
//
// While the editor runs, SIGINT, SIGTERM and SIGHUP are caught and passed
// on to it. After SIGTERM or SIGHUP the editor is waited for, killed if it
// has not stopped within editorGrace, and the edit is abandoned. SIGINT is
// the editor's to handle (vi ignores it): the edit is abandoned only if the
// editor dies of it. An abandoned edit returns an exitError whose code is
// 128 plus the signal's number, as a shell reports a process a signal ended.
func editInPrivate(name string, data []byte) ([]byte, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" {
		base = os.TempDir()
	}
	dir, err := os.MkdirTemp(base, "opencenter-edit-") // mode 0700
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return nil, err
	}
	editor := os.Getenv("EDITOR")
	if editor == "" {
		editor = "vi"
	}
	// exec: the shell becomes the editor, so a signal passed on reaches it.
	cmd := exec.Command("sh", "-c", "exec "+editor+` "$1"`, "sh", file)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the editor %q did not start: %w", editor, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var got os.Signal
	for {
		select {
		case err := <-done:
			if got != nil && exitedOn(cmd.ProcessState) {
				return nil, interrupted(got)
			}
			if err != nil {
				return nil, fmt.Errorf("the editor %q failed (%v)", editor, err)
			}
			return os.ReadFile(file)
		case sig := <-signals:
			got = sig
			cmd.Process.Signal(sig)
			if sig == syscall.SIGINT {
				continue
			}
			select {
			case <-done:
			case <-time.After(editorGrace):
				cmd.Process.Kill()
				<-done
			}
			return nil, interrupted(sig)
		}
	}
}

// exitedOn reports whether a process was ended by a signal.
func exitedOn(st *os.ProcessState) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

// interrupted is the error of an edit a signal abandoned.
func interrupted(sig os.Signal) error {
	code := exitBadInput
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	return &exitError{code, errors.New("interrupted by " + sig.String() + ": the editor was stopped and its decrypted copy removed")}
}
