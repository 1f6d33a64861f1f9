package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// commands are the driver's subcommands, sorted (§11).
var commands = []string{"check", "ci", "clean", "explain", "setup", "update"}

const usageHead = `usage: go run ./internal/devtools/fishery <command> [target] [--shard I/N] [--network]

Runs the working copy of Ahab against pinned projects and compares what it
finds with the report recorded in fishery/<target>/expectation.json.

commands:
  setup TARGET    fetch the pinned commit into fishery/TARGET/work
  check TARGET    analyse it and compare with expectation.json (diff, exit 1)
  update TARGET   analyse it and record the result as expectation.json
  explain TARGET  print the recorded expectation as a report
  clean TARGET    expunge its Bazel output base and remove its work/
  ci              clean, setup, check, clean every target; summarise

flags:
`

const usageTail = `
Exit status: 0 on success, Ahab's own status when Ahab fails (1 for a diff
or a report), 1 for any other error, 2 when the command line is wrong.

See docs/fishery.md.
`

// Invocation is a parsed command line.
type Invocation struct {
	Command string
	Target  string // empty for ci
	Shard   *Shard // only for ci
	Network bool   // only for ci
	Help    bool
}

// usageError is a mistake on the command line: exit status 2, as for
// Ahab's own command line (internal/cli).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// shardFlag is --shard's value. It parses I/N as it is set and refuses a
// second --shard, which pflag would otherwise let replace the first.
type shardFlag struct{ shard **Shard }

func (f shardFlag) String() string {
	if *f.shard == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", (*f.shard).Index, (*f.shard).Count)
}

func (f shardFlag) Set(value string) error {
	if *f.shard != nil {
		return errors.New("--shard given twice, expected it once")
	}
	s, err := ParseShard(value)
	if err != nil {
		return err
	}
	*f.shard = &s
	return nil
}

func (f shardFlag) Type() string { return "I/N" }

// flagSet is the driver's flags, parsed into inv.
func flagSet(inv *Invocation) *pflag.FlagSet {
	fs := pflag.NewFlagSet("fishery", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	fs.Var(shardFlag{&inv.Shard}, "shard", "with ci: run only shard `I/N`, the I-th of N (split greedily by spec.json weight)")
	fs.BoolVar(&inv.Network, "network", false, "with ci: also run the targets whose repo is a network URL (they need the network and Bazel 8+); by default ci runs only the local targets, whose source is kept in this repository")
	fs.BoolVarP(&inv.Help, "help", "h", false, "print this help and exit")
	return fs
}

// usage is the text --help prints.
func usage() string {
	return usageHead + flagSet(&Invocation{}).FlagUsagesWrapped(76) + usageTail
}

// ParseArgs reads the command line; known lists the targets, sorted, for
// error messages. Flags may come anywhere. A mistake is a usageError.
func ParseArgs(args []string, known []string) (Invocation, error) {
	var inv Invocation
	fs := flagSet(&inv)
	if err := fs.Parse(args); err != nil {
		return Invocation{}, usageError{flagError(err)}
	}
	positional := fs.Args()
	if inv.Help || slices.Contains(positional, "help") {
		return Invocation{Help: true}, nil
	}
	if len(positional) == 0 {
		return Invocation{}, usageError{fmt.Sprintf("no command, expected one of: %s", strings.Join(commands, ", "))}
	}
	inv.Command = positional[0]
	if !slices.Contains(commands, inv.Command) {
		return Invocation{}, usageError{fmt.Sprintf("unknown command %q, expected one of: %s", inv.Command, strings.Join(commands, ", "))}
	}
	rest := positional[1:]
	if inv.Command == "ci" {
		if len(rest) > 0 {
			return Invocation{}, usageError{fmt.Sprintf("ci takes no target, got %q; to run one target use check", rest[0])}
		}
		return inv, nil
	}
	for _, flag := range []string{"shard", "network"} {
		if fs.Changed(flag) {
			return Invocation{}, usageError{fmt.Sprintf("--%s applies only to ci, not to %s", flag, inv.Command)}
		}
	}
	switch len(rest) {
	case 0:
		return Invocation{}, usageError{fmt.Sprintf("%s needs a target, expected one of: %s", inv.Command, strings.Join(known, ", "))}
	case 1:
	default:
		return Invocation{}, usageError{fmt.Sprintf("%s takes one target, got %d: %s", inv.Command, len(rest), strings.Join(rest, " "))}
	}
	inv.Target = rest[0]
	if !slices.Contains(known, inv.Target) {
		return Invocation{}, usageError{fmt.Sprintf("unknown target %q, expected one of: %s", inv.Target, strings.Join(known, ", "))}
	}
	return inv, nil
}

// flagError words pflag's errors the way the driver's other messages are
// worded: what is wrong, then what was expected.
func flagError(err error) string {
	if e, ok := errors.AsType[*pflag.NotExistError](err); ok {
		flag := "--" + e.GetSpecifiedName()
		if group := e.GetSpecifiedShortnames(); group != "" {
			flag = "-" + group
		}
		return fmt.Sprintf("unknown flag %q, expected --shard I/N or --network (with ci)", flag)
	}
	if e, ok := errors.AsType[*pflag.ValueRequiredError](err); ok && e.GetFlag().Name == "shard" {
		return "--shard needs a value, expected I/N such as 1/4"
	}
	if e, ok := errors.AsType[*pflag.InvalidValueError](err); ok && e.GetFlag().Name == "shard" {
		return e.Unwrap().Error() // shardFlag's own message names the flag
	}
	return err.Error()
}
