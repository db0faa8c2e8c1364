package overlay

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	_ "github.com/opencenter-dev/opencenter/internal/posixonly" // Windows: one readable build error
)

// The files of a write go through package syscall, not os.File: an
// os.File costs a poller registration (refused for a regular file, after a
// system call) and a finalizer per file, which a fleet render pays forty
// thousand times (BenchmarkProcess250).

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
	if err := os.Rename(tmp, full); err != nil {
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

// openNew creates the file name, which must not exist, for writing.
func openNew(name string, mode fs.FileMode) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, uint32(mode.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return fd, nil
	}
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
		syscall.Write(fd, data[:len(data)/2]) // a crash mid-write leaves a partial file
		syscall.Close(fd)
		return err
	}
	for rest := data; len(rest) > 0; {
		n, err := syscall.Write(fd, rest)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fail("write", err)
		}
		rest = rest[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
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

// tempName names a new temporary file or directory in dir:
// .opencenter-<pid>-<n>.tmp, unique among live processes.
func tempName(dir string) string {
	return filepath.Join(dir, tmpPrefix+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(tmpSeq.Add(1), 10)+tmpSuffix)
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
		err := os.Mkdir(name, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, err
	}
}

// dirMaker makes the directories of a write's files, each once. It knows
// the directory under which the files go exists, and makes each
// directory's parents first, so a new directory costs one mkdir.
type dirMaker map[string]bool

// newDirMaker returns a dirMaker for files under root, which exists.
func newDirMaker(root string) dirMaker { return dirMaker{root: true} }

// parentOf makes the directory of the file full, a clean path under the
// root, with its parents.
func (m dirMaker) parentOf(full string) error {
	return m.make(full[:strings.LastIndexByte(full, filepath.Separator)])
}

func (m dirMaker) make(dir string) error {
	if m[dir] {
		return nil
	}
	if err := m.make(dir[:strings.LastIndexByte(dir, filepath.Separator)]); err != nil {
		return err
	}
	if err := step("mkdir"); err != nil {
		return err
	}
	if err := syscall.Mkdir(dir, 0o755); err == syscall.EEXIST {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.ENOTDIR}
		}
	} else if err != nil {
		return &fs.PathError{Op: "mkdir", Path: dir, Err: err}
	}
	m[dir] = true
	return nil
}
