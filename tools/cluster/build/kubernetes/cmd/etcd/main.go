// Command etcd is etcd's server at the version k8s.io/kubernetes pins
// (go.etcd.io/etcd/server/v3), for the development cluster's API server.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
