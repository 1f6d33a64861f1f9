// Command difflog is what bench/difflog.sh measures: `ahab diff` as a
// library call, until the CLI wires the command, and the baselines it is
// held to. It is not installed and not for users.
//
//	difflog OLD NEW              read both logs (at once), diff, write the text
//	                             report to stdout and the JSON one to -json
//	difflog -mode read LOG       read one log with execlog into a spawndiff.Log
//	difflog -mode proto LOG      read one log the plain way: proto.Unmarshal of
//	                             every message into the generated types (binary:
//	                             SpawnExec; compact: ExecLogEntry, after zstd)
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/execlog"
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

// plain reads a binary or compact log with proto.Unmarshal into a fresh
// message each time, as a plain sequential protobuf reader does.
func plain(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var r io.Reader = br
	newMsg := func() proto.Message { return new(spawnpb.SpawnExec) }
	if magic, _ := br.Peek(4); string(magic) == "\x28\xb5\x2f\xfd" {
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return err
		}
		defer zr.Close()
		r = bufio.NewReaderSize(zr, 64<<10)
		newMsg = func() proto.Message { return new(spawnpb.ExecLogEntry) }
	}
	rb := r.(io.ByteReader)
	var buf []byte
	n := 0
	for {
		size, err := binary.ReadUvarint(rb)
		if err == io.EOF {
			fmt.Printf("%d messages\n", n)
			return nil
		}
		if err != nil {
			return err
		}
		if uint64(cap(buf)) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		if _, err := io.ReadFull(r, buf); err != nil {
			return err
		}
		if err := proto.Unmarshal(buf, newMsg()); err != nil {
			return err
		}
		n++
	}
}
