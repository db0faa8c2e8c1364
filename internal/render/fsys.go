package render

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"

	_ "github.com/opencenter-dev/opencenter/internal/posixonly" // Windows: one readable build error
)

// The file system operations of a write, on the system calls directly: an
// os.File costs a poller registration and a finalizer per file, which a
// fleet render pays forty thousand times.

// step is called before each file system operation of a write. Tests set it
// to stop a write after N operations, as a crash would.
var step = func(op string) error { return nil }

// writeAtomic writes data to a temporary file beside full, created with its
// final mode, and renames it over full.
func writeAtomic(full string, data []byte, mode fs.FileMode) error {
	if err := step("create"); err != nil {
		return err
	}
	fd, tmp, err := createTemp(filepath.Dir(full), mode)
	if err != nil {
		return err
	}
	if err := fill(fd, tmp, data, mode); err != nil {
		if errors.As(err, new(*fs.PathError)) {
			os.Remove(tmp) // a failed write; a crash (step) leaves what it wrote
		}
		return err
	}
	if err := step("rename"); err != nil {
		return err
	}
	if err := rename(tmp, full); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeNew writes data to a new file full, created with its final mode;
// it fails when full exists.
func writeNew(full string, data []byte, mode fs.FileMode) error {
	if err := step("create"); err != nil {
		return err
	}
	fd, err := openNew(full, mode)
	if err != nil {
		return err
	}
	return fill(fd, full, data, mode)
}

// fill writes data to fd, a file just created as name, and closes it. The
// mode is set before any byte is written (a Secret is never readable by
// others); it needs setting only when the umask narrowed the creation mode.
func fill(fd int, name string, data []byte, mode fs.FileMode) error {
	fail := func(op string, err error) error {
		syscall.Close(fd)
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	if mode&umask != 0 {
		if err := syscall.Fchmod(fd, uint32(mode.Perm())); err != nil {
			return fail("chmod", err)
		}
	}
	if err := step("write"); err != nil {
		writeAll(fd, data[:len(data)/2]) // a crash mid-write leaves a partial file
		return err
	}
	if err := writeAll(fd, data); err != nil {
		return fail("write", err)
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}

// rename is os.Rename without its lstat of the target, which guards
// against renaming a directory over a directory: a file renamed over a
// directory fails on its own (EISDIR), and a staged directory's target does
// not exist.
func rename(from, to string) error {
	for {
		switch err := syscall.Rename(from, to); err {
		case nil:
			return nil
		case syscall.EINTR:
			continue
		default:
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
		}
	}
}

// mkdirAll is os.MkdirAll(dir, 0o755) that tries to make dir first: in a
// new tree, its parent was usually made just before, and os.MkdirAll would
// stat both first.
func mkdirAll(dir string) error {
	switch err := sysMkdir(dir, 0o755); err {
	case nil:
		return nil
	case syscall.ENOENT:
		if err := mkdirAll(filepath.Dir(dir)); err != nil {
			return err
		}
		switch err := sysMkdir(dir, 0o755); err {
		case nil:
			return nil
		case syscall.EEXIST:
		default:
			return &fs.PathError{Op: "mkdir", Path: dir, Err: err}
		}
	}
	return os.MkdirAll(dir, 0o755) // it exists (a directory?), or another error to report
}

// open is syscall.Open, retried when interrupted, with os.Open's errors.
func open(name string, flags int, perm fs.FileMode) (int, error) {
	for {
		fd, err := sysOpen(name, flags|syscall.O_CLOEXEC, uint32(perm.Perm()))
		switch err {
		case nil:
			return fd, nil
		case syscall.EINTR:
			continue
		}
		return -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
}

// openNew creates the file name, which must not exist, for writing.
func openNew(name string, mode fs.FileMode) (int, error) {
	return open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL, mode)
}

// readFile is os.ReadFile with the system calls directly (no os.File, no
// stat): a re-render reads every file it owns.
func readFile(name string) ([]byte, error) {
	fd, err := open(name, syscall.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	b := make([]byte, 0, 4096)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b))
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

// writeAll writes data to fd, retrying short and interrupted writes.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// umask is the process's file mode creation mask, read once while the
// package initialises (no file is being created then).
var umask = func() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
}()

// tmpSeq numbers the temporary files and directories of this process.
var tmpSeq atomic.Uint64

var pid = os.Getpid()

// tempName names a new temporary file or directory in dir:
// .opencenter-<pid>-<n>.tmp, unique among live processes.
func tempName(dir string) string {
	return filepath.Join(dir, tmpPrefix+strconv.Itoa(pid)+"-"+strconv.FormatUint(tmpSeq.Add(1), 10)+tmpSuffix)
}

// createTemp creates a new temporary file in dir; a leftover of a dead
// process with the same pid is stepped over (O_EXCL).
func createTemp(dir string, mode fs.FileMode) (int, string, error) {
	for {
		name := tempName(dir)
		fd, err := openNew(name, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return fd, name, err
	}
}

// createTempDir makes a new temporary directory in dir.
func createTempDir(dir string) (string, error) {
	for {
		name := tempName(dir)
		if err := step("mkdir"); err != nil {
			return "", err
		}
		switch err := sysMkdir(name, 0o755); err {
		case nil:
			return name, nil
		case syscall.EEXIST, syscall.EINTR:
			continue
		default:
			return "", &fs.PathError{Op: "mkdir", Path: name, Err: err}
		}
	}
}
