package spec

import (
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/glob"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/quote"
)

// EntryKind says what a library entry does with its program (§5.4).
type EntryKind uint8

// The three kinds of entry.
const (
	SpecEntry   EntryKind = iota // the program has a spec
	SameAsEntry                  // the program is a synonym of another
	WrapsEntry                   // the program runs another; unwrap it
)

// TransitionKind says how a wrapper names the program it runs.
type TransitionKind uint8

// The two transitions (§5.6).
const (
	// AfterSeparator: the argument after the first Separator is the
	// program, the rest its arguments.
	AfterSeparator TransitionKind = iota
	// FirstArgument: the first argument is the program unless it looks
	// like a flag (`python3 -c`).
	FirstArgument
)

// Transition is how a wrapper's arguments name the program it runs.
type Transition struct {
	Kind      TransitionKind
	Separator string // AfterSeparator only
}

// Unwrap splits a wrapper's arguments into the wrapped program's argv[0]
// and its arguments; ok is false when the transition does not fire.
func (t Transition) Unwrap(args []string) (argv0 string, rest []string, ok bool) {
	switch t.Kind {
	case AfterSeparator:
		for i, a := range args {
			if a == t.Separator {
				// Later separators belong to the wrapped program.
				if i+1 < len(args) {
					return args[i+1], args[i+2:], true
				}
				return "", nil, false
			}
		}
	case FirstArgument:
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			return args[0], args[1:], true
		}
	}
	return "", nil, false
}

// Entry is one program of a spec file or of the built-in library.
type Entry struct {
	Key     string     // the program name as written
	Program program.ID // Key parsed (§4.3); a pattern when its path has * or ?
	Origin  string     // the file the entry came from, for messages
	Kind    EntryKind
	Spec    *Spec      // SpecEntry
	SameAs  program.ID // SameAsEntry
	Wraps   Transition // WrapsEntry
}

type patternEntry struct {
	entry Entry
	glob  glob.Glob
}

// Library holds entries by program with the precedence of §5.5: an exact
// key beats any pattern, a later entry replaces an earlier one with the
// same key, a later pattern beats an earlier one, and a pattern answers
// only for programs of exactly its origin. The zero Library is an empty
// library of Ahab's own judgement, ready to use.
type Library struct {
	// mode is how the library reads program names and globs, and whether
	// it judges the machine's own programs (mode.Default) or, as Ahab 0.2,
	// never looks them up (§5.6 step 1).
	mode     mode.Mode
	exact    map[program.ID]Entry
	patterns []patternEntry // oldest first
	added    []Entry

	// memo remembers ResolveArgv's answers by argv[0]; Add clears it.
	memo    sync.Map // string → Resolution without Args
	memoLen atomic.Int32

	tables tables
}

// NewLibrary returns an empty library of Ahab's own judgement.
func NewLibrary() *Library { return &Library{} }

// NewLibraryFor returns an empty library of mode m.
func NewLibraryFor(m mode.Mode) *Library { return &Library{mode: m} }

// Mode is the judgement the library passes.
func (l *Library) Mode() mode.Mode { return l.mode }

// Add adds entries in order; origin names where they came from.
func (l *Library) Add(origin string, entries ...Entry) {
	l.memo.Clear()
	l.memoLen.Store(0)
	for _, e := range entries {
		e.Origin = origin
		l.added = append(l.added, e)
		if e.Program.IsPattern() {
			// §5.5: a re-declared pattern moves to the end, so it is the
			// newest.
			for i, p := range l.patterns {
				if p.entry.Program == e.Program {
					l.patterns = append(l.patterns[:i:i], l.patterns[i+1:]...)
					break
				}
			}
			l.patterns = append(l.patterns, patternEntry{entry: e, glob: glob.For(l.mode)(e.Program.Path)})
			continue
		}
		if l.exact == nil {
			l.exact = make(map[program.ID]Entry)
		}
		l.exact[e.Program] = e
	}
}

// Entries returns every entry ever added, in the order added, including
// those a later entry overrides.
func (l *Library) Entries() []Entry {
	return l.added[:len(l.added):len(l.added)]
}

// Lookup finds the entry that answers for key (§5.5). The entry's Program
// is the key that carried it: key itself, or the pattern that matched.
func (l *Library) Lookup(key program.ID) (Entry, bool) {
	if e, ok := l.exact[key]; ok {
		return e, true
	}
	for i := len(l.patterns) - 1; i >= 0; i-- {
		p := &l.patterns[i]
		// The origin is never wildcarded: a pattern does not reach
		// across repositories.
		if p.entry.Program.Origin == key.Origin && p.glob.Match(key.Path) {
			return p.entry, true
		}
	}
	return Entry{}, false
}

// maxResolutionSteps bounds same_as chains and wrappers (§5.6), so cycles
// end.
const maxResolutionSteps = 16

// Resolve follows same_as and wraps entries from p to the spec that
// answers (§5.6). System programs are never looked up, even after
// unwrapping: no spec can vouch for the machine's own tools.
func (l *Library) Resolve(p program.ID, args []string) Resolution {
	return l.Trace(p, args, nil)
}

// Step is one lookup of a resolution, as Trace reports it.
type Step struct {
	Key   program.ID // what was looked up
	Found bool       // whether an entry answered
	Entry Entry      // the entry that answered; its Program is the key that carried it
	// Fired says, for a wraps entry, whether its transition found a
	// program to unwrap.
	Fired bool
}

// Trace is Resolve that also tells step about every lookup it makes, so
// that spec authors can see how a command line was judged (`ahab program`).
// step may be nil.
func (l *Library) Trace(p program.ID, args []string, step func(Step)) Resolution {
	r, _ := l.trace(p, args, step)
	return r
}

// memoLimit bounds how many programs ResolveArgv remembers: a graph whose
// every action runs a program of its own (a generated script per target)
// must not make the memo as big as the graph.
const memoLimit = 4096

// ResolveArgv is Resolve(program.Of(argv[0]), argv[1:]) for a non-empty
// argv. A build runs the same few hundred programs hundreds of thousands
// of times, and a resolution that meets no wraps entry does not depend on
// the arguments, so those are remembered by argv[0] (BenchmarkResolveArgv:
// about half the time of resolving each). It is safe for concurrent use,
// as long as nothing is added to the library meanwhile.
func (l *Library) ResolveArgv(argv []string) Resolution {
	if v, ok := l.memo.Load(argv[0]); ok {
		r := v.(Resolution)
		r.Args = argv[1:]
		return r
	}
	r, unwrapped := l.trace(program.OfFor(l.mode)(argv[0]), argv[1:], nil)
	if !unwrapped && l.memoLen.Load() < memoLimit {
		// argv[0] and the program parsed from it may share the memory of
		// a buffer the caller reuses: the memo keeps copies.
		m := Resolution{Program: cloneID(r.Program), Spec: r.Spec, Carrier: cloneID(r.Carrier)}
		if _, loaded := l.memo.LoadOrStore(strings.Clone(argv[0]), m); !loaded {
			l.memoLen.Add(1)
		}
	}
	return r
}

func cloneID(p program.ID) program.ID {
	p.Origin.Module = strings.Clone(p.Origin.Module)
	p.Origin.Extension = strings.Clone(p.Origin.Extension)
	p.Path = strings.Clone(p.Path)
	return p
}

// trace is Trace, and also says whether a wraps entry was met, in which
// case the resolution depends on the arguments.
func (l *Library) trace(p program.ID, args []string, step func(Step)) (r Resolution, wraps bool) {
	r = Resolution{Program: p, Args: args}
	key := p
	for range maxResolutionSteps {
		if r.Program.Origin.Kind == program.System {
			if l.mode == mode.Ahab02 {
				break // §5.6 step 1: no spec can vouch for the machine's own tools
			}
			// The machine's tools are judged by name: /usr/bin/tar by
			// the entry tar, unless the library names the path itself.
			if _, exact := l.Lookup(key); !exact && key == r.Program {
				key = program.ID{Origin: key.Origin, Path: path.Base(key.Path)}
			}
		}
		e, ok := l.Lookup(key)
		if step != nil {
			st := Step{Key: key, Found: ok, Entry: e}
			if ok && e.Kind == WrapsEntry {
				_, _, st.Fired = e.Wraps.Unwrap(r.Args)
			}
			step(st)
		}
		if !ok {
			break
		}
		switch e.Kind {
		case SpecEntry:
			r.Spec = e.Spec
			r.Carrier = e.Program
			return r, wraps
		case SameAsEntry:
			key = e.SameAs
		case WrapsEntry:
			wraps = true
			argv0, rest, fired := e.Wraps.Unwrap(r.Args)
			if !fired {
				return r, wraps
			}
			// The wrapper recorded is the name the action used, even
			// when the wraps entry was reached through same_as.
			r.Wrappers = append(r.Wrappers, r.Program)
			r.Program = program.OfFor(l.mode)(argv0)
			r.Args = rest
			key = r.Program
		}
	}
	return r, wraps
}

// LoadFile adds the entries of a user's spec file (§5.4), in byte-sorted
// key order. Nothing is added when the file has an error, which includes a
// same_as that leads nowhere (see CheckSameAs).
func (l *Library) LoadFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fileerr.Read("specs", path, err)
	}
	file, err := Parse(path, data, l.mode)
	if err != nil {
		return err
	}
	entries := file.Programs
	// The file's same_as targets are judged against the library as it
	// will be, so a file may point into itself or at anything before it.
	trial := &Library{mode: l.mode, exact: maps.Clone(l.exact), patterns: slices.Clone(l.patterns)}
	trial.Add(path, entries...)
	for _, e := range entries {
		if err := trial.CheckSameAs(e); err != nil {
			return &jsonfile.Error{Path: path, Entry: e.Key, Err: err}
		}
	}
	l.Add(path, entries...)
	l.tables.add(file)
	return nil
}

// AddFile adds everything a parsed spec file holds.
func (l *Library) AddFile(origin string, f *File) {
	l.Add(origin, f.Programs...)
	l.tables.add(f)
}

// CheckSameAs follows a same_as entry's chain to the entry that finally
// answers, a spec or a wrapper, and says what is wrong when there is none:
// a target that names nothing, a chain that comes back on itself, or one
// longer than resolution follows (§5.6). Ahab 0.2 accepted all three and
// reported such a program as unknown at every use.
func (l *Library) CheckSameAs(e Entry) error {
	seen := []program.ID{e.Program}
	for e.Kind == SameAsEntry {
		target := e.SameAs
		if slices.Contains(seen, target) {
			if len(seen) == 1 {
				return fmt.Errorf("same_as: %s refers back to itself", quote.Quote(target.String()))
			}
			return fmt.Errorf("same_as: the chain %s comes back to %s", chain(seen), quote.Quote(target.String()))
		}
		if len(seen) >= maxResolutionSteps {
			return fmt.Errorf("same_as: the chain %s is longer than the %d steps resolution follows", chain(seen), maxResolutionSteps)
		}
		next, ok := l.Lookup(target)
		if !ok {
			return fmt.Errorf("same_as: %s has no entry, expected a program with a spec, a same_as or a wraps entry", quote.Quote(target.String()))
		}
		seen = append(seen, target)
		e = next
	}
	return nil
}

func chain(ids []program.ID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = quote.Quote(id.String())
	}
	return strings.Join(names, " → ")
}
