//go:build linux

package render

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSysOpenLikeSyscall holds sysOpen and sysMkdir to package syscall's
// answers, for paths passed from the stack and paths too long for it.
func TestSysOpenLikeSyscall(t *testing.T) {
	dir := t.TempDir()
	// A directory deep enough that its files' paths do not fit a cPath.
	long := dir
	for len(long) < len(cPath{})+10 {
		long = filepath.Join(long, strings.Repeat("d", 40))
	}
	if err := os.MkdirAll(long, 0o755); err != nil {
		t.Fatal(err)
	}
	// The longest path a cPath holds, with its NUL.
	atMax := filepath.Join(dir, strings.Repeat("m", len(cPath{})-len(dir)-2))
	if len(atMax) != len(cPath{})-1 {
		t.Fatalf("path of %d bytes, want %d", len(atMax), len(cPath{})-1)
	}
	create := syscall.O_WRONLY | syscall.O_CREAT | syscall.O_EXCL | syscall.O_CLOEXEC
	for _, name := range []string{
		filepath.Join(dir, "new.yaml"),
		atMax,
		atMax + "x", // one byte too long for the stack
		filepath.Join(long, "new.yaml"),
		filepath.Join(dir, "missing", "new.yaml"),
		filepath.Join(dir, "nul\x00.yaml"),
	} {
		// Each call runs twice, on two names, ours then syscall's; the
		// second call of each meets what the first made.
		ours, theirs := name, name+"2"
		if strings.HasSuffix(name, ".yaml") {
			theirs = strings.TrimSuffix(name, ".yaml") + "2.yaml"
		}
		for round := range 2 {
			fd, err := sysOpen(ours, create, 0o600)
			fd2, err2 := syscall.Open(theirs, create, 0o600)
			if err != err2 {
				t.Errorf("%q, call %d: sysOpen: %v, syscall.Open: %v", shortName(name), round+1, err, err2)
			}
			if (fd >= 0) != (fd2 >= 0) {
				t.Errorf("%q, call %d: sysOpen fd %d, syscall.Open fd %d", shortName(name), round+1, fd, fd2)
			}
			for _, fd := range []int{fd, fd2} {
				if fd >= 0 {
					syscall.Close(fd)
				}
			}
		}
		if st, err := os.Stat(ours); err == nil && st.Mode().Perm() != 0o600&^umask {
			t.Errorf("%q: mode %v", shortName(name), st.Mode())
		}
		if err := sysMkdir(ours+".d", 0o755); err != syscall.Mkdir(theirs+".d", 0o755) {
			t.Errorf("%q: sysMkdir: %v, unlike syscall.Mkdir", shortName(name), err)
		}
		if err := sysMkdir(ours+".d", 0o755); err != syscall.Mkdir(theirs+".d", 0o755) {
			t.Errorf("%q: sysMkdir again: %v, unlike syscall.Mkdir", shortName(name), err)
		}
	}
}

// TestSysOpenAllocations holds the reason sysOpen and sysMkdir exist: no
// allocation for a path that fits.
func TestSysOpenAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	dir := t.TempDir()
	file, sub := filepath.Join(dir, "file.yaml"), filepath.Join(dir, "sub")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		fd, err := sysOpen(file, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		syscall.Close(fd)
		if err := sysMkdir(sub, 0o755); err != syscall.EEXIST {
			t.Fatalf("mkdir of an existing directory: %v", err)
		}
	})
	if n != 0 {
		t.Errorf("an open and a failed mkdir take %.1f allocations, want 0", n)
	}
}

func shortName(name string) string {
	if len(name) > 60 {
		return "…" + name[len(name)-40:]
	}
	return name
}
