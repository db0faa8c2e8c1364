// Command etcd is etcd's server, pinned for the e2e harness (make e2e): the
// etcd module ships no main package of its own outside its root module, so
// this one calls etcdmain as etcd's own main does.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
