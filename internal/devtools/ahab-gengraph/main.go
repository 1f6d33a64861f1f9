// Command ahab-gengraph writes a deterministic, realistic `bazel aquery`
// dump of N actions, for benchmarking Ahab (see docs/performance.md):
//
//	ahab-gengraph -actions 200000 -seed 1 -o /tmp/200k.pb
//
// The same -actions and -seed always give the same bytes. With -amplify it
// instead writes copies of a real dump as one graph, renumbered or not:
//
//	ahab-gengraph -amplify webapp.pb -copies 12000 -renumber -o /tmp/amp.pb
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ahab-go/ahab/internal/gengraph"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahab-gengraph", flag.ContinueOnError)
	fs.SetOutput(stderr)
	actions := fs.Int("actions", 10000, "number of actions to generate")
	seed := fs.Uint64("seed", 1, "seed; the same seed and -actions give the same bytes")
	format := fs.String("format", "proto", "output format: proto, streamed_proto or jsonproto")
	out := fs.String("o", "-", "output file, - for stdout")
	quiet := fs.Bool("q", false, "do not print statistics to stderr")
	amplify := fs.String("amplify", "", "write copies of this real binary dump instead of generating one")
	copies := fs.Int("copies", 1000, "with -amplify: how many copies")
	renumber := fs.Bool("renumber", false, "with -amplify: give each copy ids and target labels of its own")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ahab-gengraph [-actions N] [-seed S] [-format proto|streamed_proto|jsonproto] [-o FILE]")
		fmt.Fprintln(stderr, "       ahab-gengraph -amplify DUMP [-copies N] [-renumber] [-o FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ahab-gengraph: unexpected argument %q, expected only flags\n", fs.Arg(0))
		return 2
	}
	f, err := gengraph.ParseFormat(*format)
	if err != nil {
		fmt.Fprintf(stderr, "ahab-gengraph: -format: %v\n", err)
		return 2
	}
	if *actions < 0 {
		fmt.Fprintf(stderr, "ahab-gengraph: -actions: %d is negative, expected a count of at least 0\n", *actions)
		return 2
	}
	var real []byte
	if *amplify != "" {
		if *format != "proto" {
			fmt.Fprintln(stderr, "ahab-gengraph: -amplify writes proto only")
			return 2
		}
		if real, err = os.ReadFile(*amplify); err != nil {
			fmt.Fprintf(stderr, "ahab-gengraph: %v\n", err)
			return 1
		}
	}
	w := stdout
	var file *os.File
	if *out != "-" {
		if file, err = os.Create(*out); err != nil {
			fmt.Fprintf(stderr, "ahab-gengraph: %v\n", err)
			return 1
		}
		w = file
	}
	var st gengraph.Stats
	if real != nil {
		st, err = gengraph.Amplify(w, real, *copies, *renumber)
	} else {
		st, err = gengraph.Write(w, gengraph.Options{Actions: *actions, Seed: *seed, Format: f})
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "ahab-gengraph: %s: %v\n", *out, err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stderr, "%s: %d bytes, %d actions, %d targets, %d artifacts, %d dep sets, %d path fragments\n",
			*out, st.Bytes, st.Actions, st.Targets, st.Artifacts, st.DepSets, st.PathFragments)
	}
	return 0
}
