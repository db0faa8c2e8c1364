package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// the module version from the build info is used.
var version = ""

// VersionCmd prints the version.
type VersionCmd struct{}

// Run prints the version of opencenter and of the Go toolchain that built it.
func (VersionCmd) Run(s *Streams) error {
	fmt.Fprintf(s.Out, "opencenter %s\n", versionString())
	return nil
}

// versionString is the version and the Go toolchain that built it.
func versionString() string {
	v := version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	return v + " (" + runtime.Version() + ")"
}
