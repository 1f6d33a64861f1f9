// Command difflog is what bench/difflog.sh measures: `ahab diff` as a
// library call, until the CLI wires the command, and the baselines it is
// held to. It is not installed and not for users.
//
//	difflog OLD NEW              read both logs (at once), diff, write the text
//	                             report to stdout and the JSON one to -json;
//	                             with -truth, check each verdict against what
//	                             ahab-genlog -truth wrote, exit 1 if one differs
//	difflog -mode read LOG       read one log with execlog into a spawndiff.Log
//	difflog -mode proto LOG...   read logs one after the other the plain way
//	                             (JSON: encoding/json and protojson per object;
//	                             binary and compact: proto.Unmarshal of
//	                             every message into the generated types, and for
//	                             the compact format each spawn rebuilt as Bazel's
//	                             SpawnLogReconstructor does (protolog)
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/execlog/protolog"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

func main() {
	mode := flag.String("mode", "diff", "diff, read or proto")
	jsonOut := flag.String("json", "", "with -mode diff: write the JSON report here")
	truth := flag.String("truth", "", "with -mode diff: check the verdicts against this ahab-genlog -truth file")
	flag.Parse()
	if err := run(*mode, *jsonOut, *truth, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "difflog:", err)
		os.Exit(1)
	}
}

func run(mode, jsonOut, truth string, args []string) error {
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
			if err := f.Close(); err != nil {
				return err
			}
		}
		if truth != "" {
			return check(r, truth)
		}
		return nil
	case "read":
		l, err := read(args[0])
		if err == nil {
			fmt.Printf("%d spawns, about %d MB of summary\n", l.Spawns(), l.Bytes()>>20)
		}
		return err
	case "proto":
		for _, name := range args {
			if err := plain(name); err != nil {
				return err
			}
		}
		return nil
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
	_, err = execlog.Summarize(f, name, execlog.Options{}, l.Tables(), l.Add)
	return l, err
}

// plain reads a binary or compact log the way a plain Go protobuf reader
// does (protolog.ReadBinary, ReadCompact), counting spawns.
func plain(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	n := 0
	count := func(*spawnpb.SpawnExec) error { n++; return nil }
	magic, _ := br.Peek(4)
	switch {
	case string(magic) == "\x28\xb5\x2f\xfd":
		err = protolog.ReadCompact(br, count)
	case len(magic) > 0 && magic[0] == '{':
		err = readJSON(br, count)
	default:
		err = protolog.ReadBinary(br, count)
	}
	fmt.Printf("%d spawns\n", n)
	return err
}

// readJSON reads a JSON log the generic way: encoding/json cuts each
// object out, protojson decodes it.
func readJSON(r io.Reader, fn func(*spawnpb.SpawnExec) error) error {
	dec := json.NewDecoder(r)
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		se := new(spawnpb.SpawnExec)
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(raw, se); err != nil {
			return err
		}
		if err := fn(se); err != nil {
			return err
		}
	}
}

// check compares the verdicts of r with an ahab-genlog -truth file.
func check(r *spawndiff.Result, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	want := map[string]string{}
	identical := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		verdict, outputs, _ := strings.Cut(sc.Text(), "\t")
		if verdict == "identical" {
			identical++
			continue
		}
		want[outputs] = verdict
	}
	if err := sc.Err(); err != nil {
		return err
	}
	bad := 0
	for _, a := range r.Actions {
		k := strings.Join(a.Outputs, " ")
		if want[k] != a.Verdict.String() {
			bad++
		}
		delete(want, k)
	}
	bad += len(want)
	if bad > 0 || identical != r.Count(spawndiff.Identical) {
		return fmt.Errorf("%s: %d verdicts differ from the truth, %d identical where it says %d", path, bad, r.Count(spawndiff.Identical), identical)
	}
	return nil
}
