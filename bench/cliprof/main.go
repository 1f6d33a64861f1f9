// Command cliprof runs ahab's command line in-process under the CPU
// profiler, for finding where a whole run's time goes (docs/performance.md):
//
//	go run ./bench/cliprof -o cpu.pprof -- --aquery-file DUMP --no-fail --shut-up --write-json /tmp/r.json
//	go tool pprof -top cpu.pprof
//	go run ./bench/cliprof -mem mem.pprof -- ...   # and where it allocates
//
// The text report goes to /dev/null. It is not installed and not for users.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/ahab-go/ahab/internal/cli"
)

func main() {
	out := flag.String("o", "cpu.pprof", "where to write the CPU profile")
	mem := flag.String("mem", "", "where to write a profile of the allocations, if anywhere")
	flag.Parse()
	if *mem != "" {
		runtime.MemProfileRate = 64 << 10
	}
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
	if *mem != "" {
		if err := writeHeap(*mem); err != nil {
			fmt.Fprintln(os.Stderr, "cliprof:", err)
			os.Exit(1)
		}
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "cliprof:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
