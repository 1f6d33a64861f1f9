// Command ahab-genlog writes deterministic, realistic Bazel execution logs
// of N spawns, for benchmarking and testing Ahab's execution-log
// comparison (see docs/performance.md and docs/diff.md):
//
//	ahab-genlog -spawns 100000 -format binary -o /tmp/100k.binary
//
// The same flags always give the same bytes. With -new it writes the logs
// of two builds, the second with planted divergences, and with -truth the
// verdict each spawn should get:
//
//	ahab-genlog -spawns 100000 -o old.binary -new new.binary -truth truth.tsv
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/genlog"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahab-genlog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spawns := fs.Int("spawns", 10000, "number of spawns of the (old) log")
	seed := fs.Uint64("seed", 1, "seed; the same seed and flags give the same bytes")
	format := fs.String("format", "binary", "log format: json, binary or compact")
	labels := fs.Bool("labels", false, "write target labels, as Bazel 7 and later do")
	out := fs.String("o", "-", "output file (the old build's with -new), - for stdout")
	newOut := fs.String("new", "", "also write a second build's log, with planted divergences, to this file")
	truth := fs.String("truth", "", "with -new: write each spawn's expected verdict and outputs to this file")
	quiet := fs.Bool("q", false, "do not print statistics to stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ahab-genlog [-spawns N] [-seed S] [-format json|binary|compact] [-labels] [-o FILE] [-new FILE [-truth FILE]]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ahab-genlog: unexpected argument %q, expected only flags\n", fs.Arg(0))
		return 2
	}
	f, err := execlog.ParseFormat(*format)
	if err != nil {
		fmt.Fprintf(stderr, "ahab-genlog: -format: %v\n", err)
		return 2
	}
	if *spawns < 0 {
		fmt.Fprintf(stderr, "ahab-genlog: -spawns: %d is negative, expected a count of at least 0\n", *spawns)
		return 2
	}
	if *truth != "" && *newOut == "" {
		fmt.Fprintln(stderr, "ahab-genlog: -truth needs -new")
		return 2
	}
	opts := genlog.Options{Spawns: *spawns, Seed: *seed, Format: f, Labels: *labels}
	var files []*os.File
	create := func(name string, std io.Writer) (io.Writer, error) {
		if name == "-" {
			return std, nil
		}
		file, err := os.Create(name)
		if err != nil {
			return nil, err
		}
		files = append(files, file)
		return file, nil
	}
	w, err := create(*out, stdout)
	var st, nst genlog.Stats
	if err == nil {
		if *newOut == "" {
			st, err = genlog.Write(w, opts)
		} else {
			var nw, tw io.Writer
			if nw, err = create(*newOut, stdout); err == nil && *truth != "" {
				tw, err = create(*truth, stdout)
			}
			if err == nil {
				st, nst, err = genlog.WritePair(w, nw, tw, opts)
			}
		}
	}
	for _, file := range files {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "ahab-genlog: %v\n", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stderr, "%s: %d bytes, %d spawns, %d inputs\n", *out, st.Bytes, st.Spawns, st.Inputs)
		if *newOut != "" {
			fmt.Fprintf(stderr, "%s: %d bytes, %d spawns, %d inputs\n", *newOut, nst.Bytes, nst.Spawns, nst.Inputs)
		}
	}
	return 0
}
