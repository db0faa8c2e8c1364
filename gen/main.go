// Command opencenter-gen compiles the overlay-unit descriptors and the config
// types into zz_generated. Run it with `go generate ./...` (or `make
// generate`); with -check it writes nothing and exits 1 if anything is stale.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/opencenter-dev/opencenter/gen/generate"
)

func main() {
	root := flag.String("root", ".", "module root")
	checkOnly := flag.Bool("check", false, "write nothing; exit 1 if zz_generated is stale")
	flag.Parse()

	o := generate.Defaults(*root)
	files, err := generate.Generate(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *checkOnly {
		write, remove, err := generate.Diff(o, files)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, p := range write {
			fmt.Fprintln(os.Stderr, "stale:", p)
		}
		for _, p := range remove {
			fmt.Fprintln(os.Stderr, "to delete:", p)
		}
		if len(write)+len(remove) > 0 {
			os.Exit(1)
		}
		return
	}
	if _, _, err := generate.Write(o, files); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
