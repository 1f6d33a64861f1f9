// Command fishery runs the working copy of Ahab against pinned Bazel
// projects and compares what it finds with the reports recorded in
// fishery/<target>/expectation.json, so that a change to a check shows up
// as a diff of somebody else's findings (reference §11; docs/fishery.md).
//
//	go run ./internal/devtools/fishery <command> [target] [--shard I/N] [--network]
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr, ""))
}

// Exit statuses besides Ahab's own, the same as Ahab's (internal/cli).
const (
	exitError = 1 // anything that went wrong other than Ahab failing
	exitUsage = 2 // the command line is wrong
)

// Main runs one fishery command and returns the process exit code: 0 on
// success, Ahab's own code when it failed (a diff, a report), 2 for a
// mistake on the command line, 1 for any other error. Errors are printed
// as `fishery: <message>` (§11). cacheDir is Bazel's output user root,
// which holds the targets' output bases; "" means ahab-fishery in the
// user's cache directory.
func Main(args []string, stdout, stderr io.Writer, cacheDir string) int {
	fail := func(err error) int {
		var code exitCode
		if errors.As(err, &code) {
			return int(code)
		}
		fmt.Fprintf(stderr, "fishery: %v\n", err)
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "Run 'go run ./internal/devtools/fishery --help' for usage.\n")
			return exitUsage
		}
		return exitError
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	root, err := FindRoot(cwd)
	if err != nil {
		return fail(err)
	}
	targets, err := LoadTargets(root)
	if err != nil {
		return fail(err)
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Name
	}
	inv, err := ParseArgs(args, names)
	if err != nil {
		return fail(err)
	}
	if inv.Help {
		fmt.Fprint(stdout, usage())
		return 0
	}
	if cacheDir == "" {
		userCache, err := os.UserCacheDir() // $XDG_CACHE_HOME, else ~/.cache
		if err != nil {
			return fail(err)
		}
		cacheDir = filepath.Join(userCache, "ahab-fishery")
	}
	d := &Driver{
		Root:     root,
		CacheDir: cacheDir,
		Stdout:   stdout,
		Stderr:   stderr,
		Targets:  targets,
	}
	defer d.Close()
	var target Target
	for _, t := range targets {
		if t.Name == inv.Target {
			target = t
		}
	}
	switch inv.Command {
	case "setup":
		err = d.Setup(target)
	case "check":
		err = d.Check(target)
	case "update":
		err = d.Update(target)
	case "explain":
		err = d.Explain(target)
	case "clean":
		err = d.Clean(target)
	case "ci":
		err = d.CI(CIOptions{Shard: inv.Shard, Network: inv.Network})
	}
	if err != nil {
		return fail(err)
	}
	return 0
}
