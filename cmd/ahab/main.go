// Command ahab is a hermeticity and reproducibility analyzer for Bazel: it
// reads what `bazel aquery` says a build would run and reports everything
// that makes the build depend on the machine it runs on.
package main

import (
	"os"

	"github.com/ahab-go/ahab/internal/cli"
)

func main() {
	os.Exit(run())
}

func run() int {
	cli.HandleSignals()
	return cli.Main(os.Args[1:], cli.OS())
}
