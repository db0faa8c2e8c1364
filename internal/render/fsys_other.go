//go:build !linux

package render

import "syscall"

// sysOpen is syscall.Open; on Linux it passes the path from the stack.
func sysOpen(name string, flags int, perm uint32) (int, error) {
	return syscall.Open(name, flags, perm)
}

// sysMkdir is syscall.Mkdir; on Linux it passes the path from the stack.
func sysMkdir(name string, perm uint32) error { return syscall.Mkdir(name, perm) }
