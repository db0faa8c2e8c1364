package repolock

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLock(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	if f, _ := File(repo); !strings.HasSuffix(f, filepath.Join(".git", "opencenter.lock")) {
		t.Errorf("a git repository keeps its lock in .git: %s", f)
	}
	a, err := Acquire(repo, true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := Acquire(repo, true, 100*time.Millisecond); !errors.Is(err, ErrBusy) || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("a second writer waits, then is busy: %v after %s", err, time.Since(start))
	}
	if _, err := Acquire(repo, false, 50*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("a reader waits for a writer: %v", err)
	}
	done := make(chan error)
	go func() {
		b, err := Acquire(repo, true, 5*time.Second)
		if err == nil {
			err = b.Release()
		}
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	a.Release()
	if err := <-done; err != nil {
		t.Fatalf("the waiting writer gets the lock once it is released: %v", err)
	}
	r1, err1 := Acquire(repo, false, time.Second)
	r2, err2 := Acquire(repo, false, time.Second)
	if err1 != nil || err2 != nil {
		t.Fatalf("readers share: %v %v", err1, err2)
	}
	r1.Release()
	r2.Release()

	plain := t.TempDir()
	if f, _ := File(plain); !strings.HasPrefix(f, os.TempDir()) || strings.HasPrefix(f, plain) {
		t.Errorf("without .git the lock stays out of the work tree: %s", f)
	}
}
