package main

import (
	"errors"
	"fmt"
	"strings"
)

// commands are the driver's subcommands, sorted (§11).
var commands = []string{"check", "ci", "clean", "explain", "setup", "update"}

const usage = `usage: go run ./cmd/fishery <command> [target] [--shard I/N] [--network]

Runs the working copy of Ahab against pinned projects and compares what it
finds with the report recorded in fishery/<target>/expectation.json.

commands:
  setup TARGET    fetch the pinned commit into fishery/TARGET/work
  check TARGET    analyse it and compare with expectation.json (diff, exit 1)
  update TARGET   analyse it and record the result as expectation.json
  explain TARGET  print the recorded expectation as a report
  clean TARGET    expunge its Bazel output base and remove its work/
  ci              clean, setup, check, clean every target; summarise

ci options:
  --shard I/N     run only the I-th of N shards (greedy by spec.json weight)
  --network       also run targets whose repo is a network URL (they need
                  the network and Bazel 8+); by default ci runs only the
                  local targets, whose source is kept in this repository

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

// ParseArgs reads the command line; known lists the targets, sorted, for
// error messages. Flags may come anywhere.
func ParseArgs(args []string, known []string) (Invocation, error) {
	var inv Invocation
	var positional []string
	shardSet := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "-h" || arg == "--help" || arg == "help":
			return Invocation{Help: true}, nil
		case arg == "--network":
			inv.Network = true
		case arg == "--shard" || strings.HasPrefix(arg, "--shard="):
			if shardSet {
				return Invocation{}, errors.New("--shard given twice, expected it once")
			}
			shardSet = true
			value, ok := strings.CutPrefix(arg, "--shard=")
			if !ok {
				if i+1 >= len(args) {
					return Invocation{}, errors.New("--shard needs a value, expected I/N such as 1/4")
				}
				i++
				value = args[i]
			}
			s, err := ParseShard(value)
			if err != nil {
				return Invocation{}, err
			}
			inv.Shard = &s
		case strings.HasPrefix(arg, "-") && arg != "-":
			return Invocation{}, fmt.Errorf("unknown flag %q, expected --shard I/N or --network (with ci)", arg)
		default:
			positional = append(positional, arg)
		}
	}
	if len(positional) == 0 {
		return Invocation{}, fmt.Errorf("no command, expected one of: %s", strings.Join(commands, ", "))
	}
	inv.Command = positional[0]
	if !contains(commands, inv.Command) {
		return Invocation{}, fmt.Errorf("unknown command %q, expected one of: %s", inv.Command, strings.Join(commands, ", "))
	}
	rest := positional[1:]
	if inv.Command == "ci" {
		if len(rest) > 0 {
			return Invocation{}, fmt.Errorf("ci takes no target, got %q; to run one target use check", rest[0])
		}
		return inv, nil
	}
	if inv.Shard != nil || inv.Network {
		flag := "--shard"
		if inv.Shard == nil {
			flag = "--network"
		}
		return Invocation{}, fmt.Errorf("%s applies only to ci, not to %s", flag, inv.Command)
	}
	switch len(rest) {
	case 0:
		return Invocation{}, fmt.Errorf("%s needs a target, expected one of: %s", inv.Command, strings.Join(known, ", "))
	case 1:
	default:
		return Invocation{}, fmt.Errorf("%s takes one target, got %d: %s", inv.Command, len(rest), strings.Join(rest, " "))
	}
	inv.Target = rest[0]
	if !contains(known, inv.Target) {
		return Invocation{}, fmt.Errorf("unknown target %q, expected one of: %s", inv.Target, strings.Join(known, ", "))
	}
	return inv, nil
}
