// Package gengraph writes deterministic, realistic `bazel aquery` dumps of
// any size, so that anyone can reproduce Ahab's benchmarks without a
// monorepo at hand.
//
// The dumps look like what Bazel 8 prints for a large C++/Rust monorepo:
// canonical repository names with "+", @@platforms//host:host, an exec
// configuration named k8-opt-exec-ST-…, CppCompile lines of 60+ arguments
// through toolchains_llvm's and the autoconfigured cc_wrapper.sh, CppLink
// and CppArchive with -2.params files, process_wrapper + rustc with
// @….params, genrules under bash -c (a few stamped, reading
// bazel-out/stable-status.txt through a chain of 24 dep sets), rules_pkg
// build_tar and build_zip, test actions, and a sprinkling of what Ahab
// reports: absolute paths, USER/HOSTNAME sentinel leaks, execution
// requirements, a non-standard PATH. An action averages about 1 KB.
//
// Top-level fields come in Bazel 4.2.3's order: artifacts, actions,
// targets, depSetOfFiles, configuration, ruleClasses, pathFragments, so
// actions come before the targets and dep sets they name. Everything is
// derived from (seed, target index), and the dump is written one element at
// a time in several passes over the targets: memory does not grow with the
// number of actions.
package gengraph

import (
	"bufio"
	"fmt"
	"io"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

// Format is the form of the dump, named as aquery's --output flag names it.
type Format int

const (
	Proto         Format = iota // --output=proto
	StreamedProto               // --output=streamed_proto (Bazel ≥ 7)
	JSONProto                   // --output=jsonproto
)

var formatNames = wire.Formats[Format]{What: "format", Names: []string{
	Proto:         "proto",
	StreamedProto: "streamed_proto",
	JSONProto:     "jsonproto",
}}

func (f Format) String() string { return formatNames.String(f) }

// ParseFormat parses a format as aquery's --output flag names it.
func ParseFormat(s string) (Format, error) { return formatNames.Parse(s) }

// Options say what to generate. The same Options always give the same bytes.
type Options struct {
	Actions int
	Seed    uint64
	Format  Format
}

// Stats describe a generated dump.
type Stats struct {
	Bytes         int64
	Actions       int
	Targets       int
	Artifacts     int
	DepSets       int
	PathFragments int
}

// Write writes a dump of opts.Actions actions to w.
func Write(w io.Writer, opts Options) (Stats, error) {
	if opts.Actions < 0 {
		return Stats{}, fmt.Errorf("actions: %d is negative, expected a count of at least 0", opts.Actions)
	}
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	var enc encoder
	switch opts.Format {
	case Proto:
		enc = &protoEncoder{w: bw}
	case StreamedProto:
		enc = &protoEncoder{w: bw, streamed: true}
	case JSONProto:
		enc = &jsonEncoder{w: bw}
	default:
		return Stats{}, fmt.Errorf("format: unknown %v, expected one of: proto, streamed_proto, jsonproto", opts.Format)
	}
	g := &generator{opts: opts}
	var st Stats

	enc.section(analysispb.ContainerArtifacts)
	for _, a := range globalArtifacts {
		enc.artifact(a.id, a.fragment)
		st.Artifacts++
	}
	g.eachTarget(func(p *plan) {
		for _, a := range p.arts {
			enc.artifact(a.id, a.fragment)
			st.Artifacts++
		}
	})

	enc.section(analysispb.ContainerActions)
	var msg actionMsg
	g.eachTarget(func(p *plan) {
		for j := range p.take {
			g.buildAction(p, j, &msg)
			enc.action(&msg)
			st.Actions++
		}
	})

	enc.section(analysispb.ContainerTargets)
	g.eachTarget(func(p *plan) {
		enc.target(p.id, p.label, uint32(p.kind)+1)
		st.Targets++
	})

	enc.section(analysispb.ContainerDepSetOfFiles)
	for _, d := range globalDepSets() {
		enc.depSet(d.id, d.trans, d.direct)
		st.DepSets++
	}
	g.eachTarget(func(p *plan) {
		for _, d := range p.sets {
			enc.depSet(d.id, d.trans, d.direct)
			st.DepSets++
		}
	})

	enc.section(analysispb.ContainerConfiguration)
	enc.configuration(configTarget, "k8-opt", "@@platforms//host:host", "0bbc9af045982e0bb86a4dd16f6f81f46851204e4c9010c96414fff554ba5c9e", false)
	enc.configuration(configExec, execConfig, "@@platforms//host:host", "d57f47055a04e6ad3d2a8e4c3ed0ab1f26b0e1c0a79f7b1bc7b7c0f4a3a5e9d2", true)

	enc.section(analysispb.ContainerRuleClasses)
	for k := range kindCount {
		enc.ruleClass(uint32(k)+1, ruleClassNames[k])
	}

	enc.section(analysispb.ContainerPathFragments)
	for i, f := range globalFragments {
		enc.pathFragment(uint32(i)+1, f.label, f.parent)
		st.PathFragments++
	}
	g.eachTarget(func(p *plan) {
		for _, f := range p.frags {
			enc.pathFragment(f.id, f.label, f.parent)
			st.PathFragments++
		}
	})
	enc.finish()
	if err := bw.Flush(); err != nil {
		return st, err
	}
	st.Bytes = cw.n
	return st, cw.err
}

type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
