// Package genlog writes deterministic, realistic execution logs of any
// size, in any of Bazel's three formats, so that anyone can reproduce
// Ahab's execution-log benchmarks without a monorepo at hand; and pairs of
// logs of two builds with planted divergences, with the verdict Ahab
// should give each spawn, to test the comparison at scale.
//
// The build is a C++ monorepo in WORKSPACE style, as Bazel 4.2.3 builds
// it: libraries in src/area_N/lib_M, each with a genrule that generates a
// header, one to six compiles (each reading a toolchain of a dozen files,
// its source, its own and its dependencies' headers, generated ones
// included), an archive; every tenth library links a binary (some stamped
// with bazel-out/volatile-status.txt) and every twentieth tests it. A
// spawn reads about 25 files on average. Everything is derived from (seed,
// library index), and a library only ever refers to the 30 before it, so
// memory does not grow with the number of spawns.
package genlog

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/execlog/protolog"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
)

// Options say what to generate. The same Options always give the same
// bytes.
type Options struct {
	// Spawns is how many spawns the (old) log has.
	Spawns int
	Seed   uint64
	Format execlog.Format
	// Labels writes target labels, as Bazel ≥ 7 does; Bazel 4.x logs have
	// none.
	Labels bool
	// Plant is, for WritePair, how many libraries per mille get a planted
	// divergence (at most 1000); 0 means DefaultPlant.
	Plant int
}

// Stats describe a generated log.
type Stats struct {
	Bytes  int64
	Spawns int
	// Inputs counts input files, summed over spawns.
	Inputs int64
}

// Write writes one log of opts.Spawns spawns to w: the old build of
// WritePair without the spawns only the old build of a pair runs.
func Write(w io.Writer, opts Options) (Stats, error) {
	out, err := newSide(w, opts)
	if err != nil {
		return Stats{}, err
	}
	g := newGenerator(opts, false)
	for s := range g.spawns {
		if s.inOld {
			if err := out.write(s, 0); err != nil {
				return out.stats, err
			}
		}
	}
	return out.close()
}

// WritePair writes the logs of two builds of the same workspace: new has
// divergences planted in it (see plant), old a few spawns new lacks, and
// new has its spawns shuffled within windows of a few hundred, as parallel
// execution orders them. truth, when not nil, receives one line per
// spawn of either log, the verdict spawndiff should give it and its
// declared outputs: "downstream\tbazel-out/…/a.o bazel-out/…/a.d".
func WritePair(old, new, truth io.Writer, opts Options) (Stats, Stats, error) {
	o, err := newSide(old, opts)
	if err != nil {
		return Stats{}, Stats{}, err
	}
	n, err := newSide(new, opts)
	if err != nil {
		return Stats{}, Stats{}, err
	}
	var tw *bufio.Writer
	if truth != nil {
		tw = bufio.NewWriter(truth)
	}
	g := newGenerator(opts, true)
	rng := rand.New(rand.NewPCG(opts.Seed, 0x5eed))
	const window = 512
	var pending []*spawnSpec
	flush := func() error {
		rng.Shuffle(len(pending), func(i, j int) { pending[i], pending[j] = pending[j], pending[i] })
		for _, s := range pending {
			if err := n.write(s, 1); err != nil {
				return err
			}
		}
		pending = pending[:0]
		return nil
	}
	for s := range g.spawns {
		if s.inOld {
			if err := o.write(s, 0); err != nil {
				return o.stats, n.stats, err
			}
		}
		if s.inNew {
			pending = append(pending, s)
			if len(pending) == window {
				if err := flush(); err != nil {
					return o.stats, n.stats, err
				}
			}
		}
		if tw != nil {
			fmt.Fprintf(tw, "%s\t%s\n", s.verdict(), strings.Join(s.outputs(), " "))
		}
	}
	if err := flush(); err != nil {
		return o.stats, n.stats, err
	}
	if tw != nil {
		if err := tw.Flush(); err != nil {
			return o.stats, n.stats, err
		}
	}
	os, err := o.close()
	if err != nil {
		return os, n.stats, err
	}
	ns, err := n.close()
	return os, ns, err
}

// side writes one log.
type side struct {
	cw    *countingWriter
	w     protolog.Writer
	stats Stats
	se    spawnpb.SpawnExec
	pool  filePool
}

func newSide(w io.Writer, opts Options) (*side, error) {
	if opts.Spawns < 0 {
		return nil, fmt.Errorf("spawns: %d is negative, expected a count of at least 0", opts.Spawns)
	}
	if opts.Plant < 0 || opts.Plant > 1000 {
		return nil, fmt.Errorf("plant: %d, expected a count per mille from 0 to 1000", opts.Plant)
	}
	s := &side{cw: &countingWriter{w: w}}
	switch opts.Format {
	case execlog.JSON:
		s.w = protolog.NewJSON(s.cw)
	case execlog.Binary:
		s.w = protolog.NewBinary(s.cw)
	case execlog.Compact:
		var err error
		if s.w, err = protolog.NewCompact(s.cw, protolog.CompactOptions{}); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("format: %v, expected one of: json, binary, compact", opts.Format)
	}
	return s, nil
}

// write writes one side (0 old, 1 new) of a spawn.
func (s *side) write(sp *spawnSpec, which int) error {
	s.pool.reset()
	se := &s.se
	*se = spawnpb.SpawnExec{
		CommandArgs:          se.CommandArgs[:0],
		EnvironmentVariables: se.EnvironmentVariables[:0],
		Inputs:               se.Inputs[:0],
		ListedOutputs:        se.ListedOutputs[:0],
		ActualOutputs:        se.ActualOutputs[:0],
	}
	se.CommandArgs = append(se.CommandArgs, sp.args[which]...)
	for _, e := range sp.env[which] {
		se.EnvironmentVariables = append(se.EnvironmentVariables, s.pool.env(e[0], e[1]))
	}
	for _, f := range sp.inputs {
		se.Inputs = append(se.Inputs, s.pool.file(f.path, f.digest[which], f.size))
	}
	for _, f := range sp.outs {
		se.ListedOutputs = append(se.ListedOutputs, f.path)
		se.ActualOutputs = append(se.ActualOutputs, s.pool.file(f.path, f.digest[which], f.size))
	}
	se.Mnemonic = sp.mnemonic
	se.TargetLabel = sp.target
	se.Remotable, se.Cacheable, se.RemoteCacheable = true, true, true
	se.Runner = "linux-sandbox"
	se.ExitCode = sp.exit[which]
	if se.ExitCode != 0 {
		se.Status = "NON_ZERO_EXIT"
	}
	s.stats.Spawns++
	s.stats.Inputs += int64(len(sp.inputs))
	return s.w.Write(se)
}

func (s *side) close() (Stats, error) {
	err := s.w.Close()
	s.stats.Bytes = s.cw.n
	if err == nil {
		err = s.cw.err
	}
	return s.stats, err
}

// filePool hands out File, Digest and EnvironmentVariable messages reused
// from one spawn to the next: the writers encode a spawn before the next
// is built.
type filePool struct {
	files   []spawnpb.File
	digests []spawnpb.Digest
	envs    []spawnpb.EnvironmentVariable
	nf, ne  int
}

func (p *filePool) reset() { p.nf, p.ne = 0, 0 }

func (p *filePool) file(path, hash string, size int64) *spawnpb.File {
	if p.nf == len(p.files) {
		// Grow by allocating anew: earlier pointers stay valid.
		p.files = make([]spawnpb.File, max(64, 2*len(p.files)))
		p.digests = make([]spawnpb.Digest, len(p.files))
		p.nf = 0
	}
	d := &p.digests[p.nf]
	d.Reset()
	d.Hash, d.SizeBytes, d.HashFunctionName = hash, size, "SHA-256"
	f := &p.files[p.nf]
	f.Reset()
	f.Path, f.Digest = path, d
	p.nf++
	return f
}

func (p *filePool) env(name, value string) *spawnpb.EnvironmentVariable {
	if p.ne == len(p.envs) {
		p.envs = make([]spawnpb.EnvironmentVariable, max(8, 2*len(p.envs)))
		p.ne = 0
	}
	e := &p.envs[p.ne]
	e.Reset()
	e.Name, e.Value = name, value
	p.ne++
	return e
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
