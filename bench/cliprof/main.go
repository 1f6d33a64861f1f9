// Command cliprof runs ahab's command line in-process under the CPU
// profiler, for finding where a whole run's time goes (docs/performance.md):
//
//	go run ./bench/cliprof -o cpu.pprof -- --aquery-file DUMP --no-fail --shut-up --write-json /tmp/r.json
//	go tool pprof -top cpu.pprof
//
// The text report goes to /dev/null. It is not installed and not for users.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/ahab-go/ahab/internal/cli"
)

func main() {
	out := flag.String("o", "cpu.pprof", "where to write the CPU profile")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cliprof:", err)
		os.Exit(1)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cliprof:", err)
		os.Exit(1)
	}
	os.Stdout = devnull
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "cliprof:", err)
		os.Exit(1)
	}
	code := cli.Main(flag.Args(), cli.OS())
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "cliprof:", err)
		os.Exit(1)
	}
	os.Exit(code)
}
