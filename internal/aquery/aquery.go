// Package aquery decodes the action graph that `bazel aquery` prints into
// the action model the checks see (package action), streaming: actions are
// handed over one at a time as they are read, and only what later lookups
// need (target labels, dep sets, the artifacts and path fragments that locate
// workspace status files) is kept until the dump ends. The whole dump is
// never held in memory (except for textproto, which tests write by hand;
// see Decode), and a dump Bazel could not have written (a dangling
// reference, an id defined twice, a field nested past protobuf's limit) is
// refused.
package aquery

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/wire"
)

// Format is the form of a dump, as named by aquery's --output flag.
type Format int

const (
	// Detect tells Decode to recognise the format from the content.
	Detect Format = iota
	// Proto is --output=proto: one binary analysis.ActionGraphContainer.
	Proto
	// StreamedProto is --output=streamed_proto: varint-length-delimited
	// ActionGraphContainer messages, each holding one item.
	StreamedProto
	// JSONProto is --output=jsonproto: the container in protobuf JSON.
	JSONProto
	// TextProto is --output=textproto: the container in protobuf text
	// format, the form tests write graphs in.
	TextProto
)

var formatNames = wire.Formats[Format]{What: "aquery output format", Detect: true, Names: []string{
	Detect:        "detect",
	Proto:         "proto",
	StreamedProto: "streamed_proto",
	JSONProto:     "jsonproto",
	TextProto:     "textproto",
}}

func (f Format) String() string { return formatNames.String(f) }

// ParseFormat parses a format named as aquery's --output flag names it.
func ParseFormat(s string) (Format, error) { return formatNames.Parse(s) }

// Action is one decoded action: the model checks see, plus the ids that can
// only be resolved once the whole graph has been read (Bazel 4.2.3 writes
// artifacts, actions, targets, depSetOfFiles, configuration, ruleClasses,
// pathFragments in that order, so actions come before what they refer to;
// never assume any order).
type Action struct {
	action.Action // StatusInputs is left empty by Decode
	// ConfigurationID is the dump's id of the action's configuration (0
	// for none); Options.Configurations names its checksum.
	ConfigurationID uint32
	InputDepSets    []uint32
	// OutputIDs are the artifacts the action writes; Graph.ArtifactPath
	// names them when Options.ArtifactPaths was set.
	OutputIDs []uint32
}

// ResolveInputs fills in the StatusInputs of a through g.
func (a *Action) ResolveInputs(g *Graph) {
	a.StatusInputs = g.StatusInputs(a.InputDepSets)
}

// Options tune Decode.
type Options struct {
	// Format is the dump's format; Detect (the zero value) recognises it.
	Format Format
	// Progress, when not nil, is called with the number of bytes read so
	// far, about every MiB and once at the end.
	Progress func(bytesRead int64)
	// Workers, when above 1, decodes binary dumps' actions on that many
	// goroutines while the dump is read on: fn is then called concurrently
	// and in no particular order, and must be safe for that. It is told
	// which goroutine calls it, from 0 to Workers-1 (always 0 when there
	// is one), so that each may keep state of its own without locks.
	Workers int
	// ReuseActions lets each of those goroutines hand fn the same Action
	// every time, refilled, and read the next actions into the memory of
	// the ones fn is done with: fn must then keep nothing of an action
	// after it returns, not even its strings (copy what it needs). It saves
	// allocating the dump's worth of memory again as it streams past.
	ReuseActions bool
	// ArtifactPaths keeps every artifact's path for Graph.ArtifactPath
	// once the dump is read, at the cost of keeping the artifacts and
	// path fragments in memory: what matching actions to the spawns of an
	// execution log by their outputs needs.
	ArtifactPaths bool
	// DepSets keeps every dep set, and every artifact's path, for
	// Graph.Inputs once the dump is read: what reading the files an
	// action runs (its tools' scripts and sources) needs.
	DepSets bool
	// Configurations, when not nil, is told the id and checksum of every
	// configuration of the dump (the id `bazel config` knows it by), from
	// any decoding goroutine: what reading the options a build used needs.
	Configurations func(id uint32, checksum string)
}

// Error is a dump that cannot be decoded, naming the file, the element
// and its byte offset:
//
//	dump.pb: action 5123 (byte 1048576): unexpected EOF
//
// Elements are counted from 1 within their kind, in dump order.
type Error = wire.Error

// Decode reads a dump from r, detecting the format from the content unless
// opts.Format is set, and calls fn for each action as soon as it is decoded:
// in dump order, on one goroutine, unless opts.Workers asks for more. fn may
// retain the *Action and its strings unless opts.ReuseActions is set. name
// is the file name used in errors ("-" or "<stdin>" for stdin, "stdout" for
// Bazel's output).
//
// Every format is read one top-level element at a time (jsonproto too,
// each element decoded with protojson), except textproto, which is read
// whole, up to 64 MiB, and decoded with prototext; memory is bounded by the
// largest element plus the lookups the Graph keeps. No buffer grows ahead
// of the bytes that arrive, whatever a length prefix claims.
//
// Every element is checked as the original's prost decoder checks it, and
// more: each id is defined once per kind, and every reference (an action's
// target, configuration, aspect descriptors, input dep sets and outputs, a
// target's rule class, an artifact's path fragment, a path fragment's
// parent, a dep set's artifacts and dep sets) names an element of the
// dump; a singular reference of 0 names nothing. References are checked
// once the whole dump has been read, since Bazel writes actions before
// what they name. The error is an *Error naming the element and the id.
//
// An error from fn stops decoding and is returned as is.
func Decode(r io.Reader, name string, opts Options, fn func(worker int, a *Action) error) (*Graph, error) {
	s := newStream(r, name, opts.Progress)
	format := opts.Format
	if format == Detect {
		var err error
		if format, err = s.detect(); err != nil {
			return nil, err
		}
	}
	b := &builder{keepPaths: opts.ArtifactPaths || opts.DepSets, keepDepSets: opts.DepSets}
	d := &elementDecoder{graph: b, fn: fn, configuration: opts.Configurations}
	if opts.Workers > 1 && (format == Proto || format == StreamedProto) {
		d.pipe = newPipeline(s, b, opts.Workers, opts.ReuseActions, fn, opts.Configurations)
	}
	var err error
	switch format {
	case Proto:
		err = s.container(d, -1)
	case StreamedProto:
		err = s.streamed(d)
	case JSONProto:
		err = s.jsonproto(d)
	case TextProto:
		err = s.textproto(d)
	default:
		return nil, fmt.Errorf("%s: unknown format %v", name, format)
	}
	if d.pipe != nil {
		// The pipeline's failure, if any, is the first in dump order among
		// the elements it decoded; a reading error may come earlier still.
		if perr := d.pipe.wait(); perr != nil && (err == nil || err == errPipelineFailed || d.pipe.off < errorOffset(err)) {
			err = perr
		}
		b.g.actions += d.pipe.actionCount
	}
	b.g.actions += d.actions
	if err != nil {
		return nil, err
	}
	s.progressDone()
	g, err := b.finish()
	if err != nil {
		if e, ok := errors.AsType[*Error](err); ok {
			e.File = name
			return nil, e
		}
		return nil, &Error{File: name, Offset: -1, Err: err}
	}
	return g, nil
}

// errorOffset is where in the dump err happened, if it says.
func errorOffset(err error) int64 {
	if e, ok := errors.AsType[*Error](err); ok && e.Offset >= 0 {
		return e.Offset
	}
	return math.MaxInt64
}

// trimProtoPrefix drops the "proto: " that the protobuf module puts before
// its error texts; our errors already say what was being read.
func trimProtoPrefix(s string) string {
	s = strings.TrimPrefix(s, "proto: ")
	s = strings.TrimPrefix(s, "proto:\u00a0") // protobuf-go sometimes uses a non-breaking space
	return strings.TrimSpace(s)
}
