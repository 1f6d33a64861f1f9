// Command difflog is what bench/difflog.sh measures: `ahab diff` as a
// library call, until the CLI wires the command, and the baselines it is
// held to. It is not installed and not for users.
//
//	difflog OLD NEW              read both logs (at once), diff, write the text
//	                             report to stdout and the JSON one to -json
//	difflog -mode read LOG       read one log with execlog into a spawndiff.Log
//	difflog -mode proto LOG      read one log the plain way: proto.Unmarshal of
//	                             every message into the generated types, and for
//	                             the compact format each spawn rebuilt as Bazel's
//	                             SpawnLogReconstructor does (execlogtest)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/execlog/execlogtest"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

func main() {
	mode := flag.String("mode", "diff", "diff, read or proto")
	jsonOut := flag.String("json", "", "with -mode diff: write the JSON report here")
	flag.Parse()
	if err := run(*mode, *jsonOut, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "difflog:", err)
		os.Exit(1)
	}
}

func run(mode, jsonOut string, args []string) error {
	switch mode {
	case "diff":
		if len(args) != 2 {
			return fmt.Errorf("diff takes two logs")
		}
		logs := make([]*spawndiff.Log, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, name := range args {
			wg.Go(func() { logs[i], errs[i] = read(name) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		r := spawndiff.Diff(logs[0], logs[1])
		if err := spawndiff.WriteText(os.Stdout, r, spawndiff.TextOptions{}); err != nil {
			return err
		}
		if jsonOut != "" {
			f, err := os.Create(jsonOut)
			if err != nil {
				return err
			}
			if err := spawndiff.WriteJSON(f, r); err != nil {
				return err
			}
			return f.Close()
		}
		return nil
	case "read":
		l, err := read(args[0])
		if err == nil {
			fmt.Printf("%d spawns, about %d MB of summary\n", l.Spawns(), l.Bytes()>>20)
		}
		return err
	case "proto":
		return plain(args[0])
	}
	return fmt.Errorf("unknown mode %q", mode)
}

func read(name string) (*spawndiff.Log, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := spawndiff.NewLog(name)
	_, err = execlog.Read(f, name, execlog.Options{ReuseSpawns: true}, l.Add)
	return l, err
}

// plain reads a binary or compact log the way a plain Go protobuf reader
// does (execlogtest.ReadBinary, ReadCompact), counting spawns.
func plain(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	n := 0
	count := func(*spawnpb.SpawnExec) error { n++; return nil }
	if magic, _ := br.Peek(4); string(magic) == "\x28\xb5\x2f\xfd" {
		err = execlogtest.ReadCompact(br, count)
	} else {
		err = execlogtest.ReadBinary(br, count)
	}
	fmt.Printf("%d spawns\n", n)
	return err
}
