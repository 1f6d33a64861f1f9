// Package effect is the vocabulary Ahab describes programs in: what value
// of the machine or the moment a program can write into what it produces
// (the clock, a random number, the build's directory, the order a
// directory lists in, the owners of the files it archives…), and where
// such a value was seen to reach an output. The spec library says which
// programs and functions have which effects under which options; the
// readers of shell, Python, Perl, awk and C follow the values to the
// files an action writes; findings and reports name them with the words
// defined here, which are stable: reports and exception files use them.
package effect

import (
	"fmt"
	"slices"
	"strings"
)

// Value is something that differs from run to run or from machine to
// machine, which a program can write into its output.
type Value uint8

// The values. Their names (String) are stable, and the first thirteen
// are those Ahab's shell analysis reported before the vocabulary existed.
const (
	Random      Value = iota // random data: $RANDOM, uuidgen, shuf, random.random()
	PID                      // the process id: $$, os.getpid()
	PWD                      // the build's directory: the execution root's absolute path
	Clock                    // the current time
	URandom                  // the kernel's random bytes: /dev/urandom
	Hostname                 // the machine's name
	User                     // the account running the build: its name or id
	TempName                 // the name of a temporary file or directory (mktemp)
	Uname                    // the kernel: its release and version
	CPUs                     // how many processors the build may use
	Order                    // the order a directory lists in (file system order)
	FileMeta                 // what the file system says of files beyond their own times, owners and modes: sizes on disk, its own figures (du, ls -s, stat -f)
	Environment              // the whole environment, which holds the directory among others
	TimeZone                 // the machine's time zone, when a time is shown in local time
	Locale                   // the machine's locale: collation, character counts, messages
	HashSeed                 // an order that follows a per-process hash seed (Python sets, Perl hashes)
	MTime                    // files' modification times, recorded in an archive or a header
	Owner                    // files' owners and groups, by name or number
	Mode                     // files' permission bits, which follow the umask
	Inode                    // files' inode and device numbers
	Parallel                 // the order in which concurrent jobs finish
	numValues
)

// info describes one value: its stable name, what it is in a sentence's
// words, and the category of the reproducible-builds.org taxonomy it falls
// in, which reports and the diagnosis of two outputs share.
type info struct {
	name     string
	noun     string
	category Category
}

var values = [numValues]info{
	Random:      {"random", "a random number", Randomness},
	PID:         {"pid", "a process id", Randomness},
	PWD:         {"pwd", "the directory it runs in", BuildPath},
	Clock:       {"clock", "the time", Time},
	URandom:     {"urandom", "random bytes", Randomness},
	Hostname:    {"hostname", "the machine's name", UserHost},
	User:        {"user", "the user's name", UserHost},
	TempName:    {"tempname", "a temporary file's random name", Randomness},
	Uname:       {"uname", "what the kernel says of itself", Kernel},
	CPUs:        {"cpus", "the number of CPUs", Parallelism},
	Order:       {"order", "the order a directory lists in", FileOrder},
	FileMeta:    {"filemeta", "what the file system says of files", ArchiveMetadata},
	Environment: {"environment", "the environment", BuildPath},
	TimeZone:    {"timezone", "the machine's time zone", TimeZoneCategory},
	Locale:      {"locale", "the machine's locale", LocaleCategory},
	HashSeed:    {"hashseed", "an order that follows a hash seed", Randomness},
	MTime:       {"mtime", "files' modification times", Time},
	Owner:       {"owner", "files' owners", UserHost},
	Mode:        {"mode", "files' permissions", Umask},
	Inode:       {"inode", "files' inode numbers", ArchiveMetadata},
	Parallel:    {"parallel", "the order concurrent jobs finish in", Parallelism},
}

// String is the value's stable name, as reports and exceptions write it.
func (v Value) String() string {
	if v < numValues {
		return values[v].name
	}
	return fmt.Sprintf("Value(%d)", uint8(v))
}

// Noun is the value in a sentence's words: "the time", "random bytes".
func (v Value) Noun() string {
	if v < numValues {
		return values[v].noun
	}
	return v.String()
}

// Category is the value's category in the reproducible-builds.org
// taxonomy.
func (v Value) Category() Category {
	if v < numValues {
		return values[v].category
	}
	return Unclassified
}

// Values lists every value in order.
func Values() []Value {
	vs := make([]Value, numValues)
	for i := range vs {
		vs[i] = Value(i)
	}
	return vs
}

// Parse finds a value by its name.
func Parse(name string) (Value, error) {
	for v, in := range values {
		if in.name == name {
			return Value(v), nil
		}
	}
	return 0, fmt.Errorf("unknown value %q, expected one of: %s", name, strings.Join(Names(), ", "))
}

// Names lists the values' names in order, for messages and docs.
func Names() []string {
	names := make([]string, numValues)
	for i, in := range values {
		names[i] = in.name
	}
	return names
}

// Category is a class of the reproducible-builds.org taxonomy of what makes
// builds differ.
type Category uint8

// The categories, named by String.
const (
	Unclassified Category = iota
	Time
	TimeZoneCategory
	LocaleCategory
	ArchiveMetadata
	FileOrder
	BuildPath
	Randomness
	UserHost
	Umask
	Parallelism
	Kernel
)

var categoryNames = [...]string{
	Unclassified: "unclassified", Time: "time", TimeZoneCategory: "time zone",
	LocaleCategory: "locale", ArchiveMetadata: "archive metadata", FileOrder: "file order",
	BuildPath: "build path", Randomness: "randomness", UserHost: "user or host",
	Umask: "umask", Parallelism: "parallelism", Kernel: "kernel",
}

func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return "unclassified"
}

// Site is a place in a file a person can open: a tool's script, a source,
// or (with File empty) the action's own command line or script.
type Site struct {
	File string
	Line int // 1-based; 0 when not known
}

func (s Site) String() string {
	switch {
	case s.File == "" && s.Line == 0:
		return "the command line"
	case s.File == "":
		return fmt.Sprintf("line %d", s.Line)
	case s.Line == 0:
		return s.File
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// Reach is a value that reaches what a program produces: where it was
// seen, as written, and why it varies.
type Reach struct {
	Value Value
	// Text is the expression or command that produces the value, as
	// written: "date", "$RANDOM", "time.time()".
	Text string
	// Because says, in the library's words, why it varies: "it prints the
	// current time unless it is given a date".
	Because string
	// Site is where Text is written.
	Site Site
}

// Describe is the reach as one line: "tools/gen.py:12: time.time()
// writes the time".
func (r Reach) Describe() string {
	var b strings.Builder
	if r.Site.File != "" {
		b.WriteString(r.Site.String())
		b.WriteString(": ")
	}
	b.WriteString(r.Text)
	if r.Because != "" {
		b.WriteString(": ")
		b.WriteString(r.Because)
	} else {
		b.WriteString(" writes ")
		b.WriteString(r.Value.Noun())
	}
	return b.String()
}

// AppendReaches appends to dst each of rs it does not hold yet: the
// reaches of a value or an output, each said once.
func AppendReaches(dst []Reach, rs ...Reach) []Reach {
	for _, r := range rs {
		if !slices.Contains(dst, r) {
			dst = append(dst, r)
		}
	}
	return dst
}
