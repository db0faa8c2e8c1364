//go:build linux

package render

import (
	"strings"
	"syscall"
	"unsafe"
)

// cPath is a path NUL-terminated on the stack. sysOpen and sysMkdir pass
// a longer path through package syscall, which copies it to the heap.
type cPath [512]byte

// of returns name, NUL-terminated, in b, or nil when it does not fit with
// its NUL or holds a NUL (package syscall reports EINVAL for that).
func (b *cPath) of(name string) *byte {
	if len(name) >= len(b) || strings.IndexByte(name, 0) >= 0 {
		return nil
	}
	copy(b[:], name) // b is zeroed, so the byte after name is NUL
	return &b[0]
}

// sysOpen is syscall.Open without its heap copy of the path: package
// syscall makes one per call, and those copies were 3.5% of a 250-cluster
// render's user CPU.
func sysOpen(name string, flags int, perm uint32) (int, error) {
	var b cPath
	p := b.of(name)
	if p == nil {
		return syscall.Open(name, flags, perm)
	}
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), uintptr(flags|syscall.O_LARGEFILE), uintptr(perm), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// sysMkdir is syscall.Mkdir without its heap copy of the path.
func sysMkdir(name string, perm uint32) error {
	var b cPath
	p := b.of(name)
	if p == nil {
		return syscall.Mkdir(name, perm)
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MKDIRAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), uintptr(perm)); errno != 0 {
		return errno
	}
	return nil
}

// atFDCWD (AT_FDCWD, -100) makes a path relative to the working
// directory, as open(2) and mkdir(2) do. A variable: -100 as a constant
// does not convert to uintptr.
var atFDCWD = -0x64
