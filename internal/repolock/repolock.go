package repolock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	_ "github.com/opencenter-dev/opencenter/internal/posixonly" // Windows: one readable build error
	"github.com/opencenter-dev/opencenter/internal/worktree"
)

// ErrBusy is returned when another process held the lock for the whole wait.
var ErrBusy = errors.New("another opencenter process is rendering this repository")

// File is where the lock of repo lives: in its git directory when it has
// one (never tracked, never in the work tree; a linked worktree's own),
// else in the temporary directory, named after the repository's absolute
// path.
func File(repo string) (string, error) {
	abs, err := filepath.Abs(repo)
	if err != nil {
		return "", err
	}
	if dir, ok := worktree.GitDir(abs); ok {
		return filepath.Join(dir, "opencenter.lock"), nil
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(os.TempDir(), "opencenter-"+hex.EncodeToString(sum[:8])+".lock"), nil
}

// Lock is a held lock.
type Lock struct{ f *os.File }

// Acquire takes the lock of repo, exclusive or shared, waiting at most wait.
func Acquire(repo string, exclusive bool, wait time.Duration) (*Lock, error) {
	file, err := File(repo)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", file, err)
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(wait)
	for delay := 5 * time.Millisecond; ; delay = min(delay*2, 200*time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", file, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w (waited %s for %s)", ErrBusy, wait, file)
		}
		time.Sleep(delay)
	}
}

// Release lets the next process in.
func (l *Lock) Release() error { return l.f.Close() }
