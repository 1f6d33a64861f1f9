package outdiff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
	"unicode/utf8"
)

// A Build is what the diagnosis knows of one of the two builds: the values
// that may reach an output and name themselves there. Any field may be
// empty. Only values that differ between the two builds classify a
// difference (the same host name in both explains nothing).
type Build struct {
	// Paths are the build's directories (its workspace or copy of it,
	// output base, execution root), each in every spelling that may reach
	// an output: as given and with its symbolic links resolved, say.
	Paths []Dir `json:"paths"`
	// Homes are the build's home directories: $HOME, and the account's
	// own when that differs.
	Homes []string `json:"homes"`
	// Start and End bound the build, its copy of the workspace included:
	// a time close to them is the build's.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Hostname is the host name the build's actions saw.
	Hostname string `json:"hostname"`
	// User and Group are the account the build ran as, by name; UID and
	// GID by number, in decimal.
	User  string `json:"user"`
	UID   string `json:"uid"`
	Group string `json:"group"`
	GID   string `json:"gid"`
	// Env holds environment variables the build set, by name.
	Env map[string]string `json:"env"`
}

// A Dir is one of a build's directories.
type Dir struct {
	// Role says what it is: "workspace", "output base", "execution root".
	Role string `json:"role"`
	Path string `json:"path"`
}

// A Format is what Diagnose took a file for.
type Format string

// The formats Diagnose reads.
const (
	Text   Format = "text"
	Tar    Format = "tar"
	Zip    Format = "zip"
	Gzip   Format = "gzip"
	Ar     Format = "ar"
	Cpio   Format = "cpio"
	ELF    Format = "elf"
	Binary Format = "binary"
)

// A Diagnosis says what differs inside two versions of one file.
type Diagnosis struct {
	// Format is what both versions were read as (Binary when they are of
	// different formats).
	Format Format `json:"format"`
	// Class is the first, in the order of the Class constants, of the
	// classes of the differences that do not follow from another; None
	// when nothing differs.
	Class Class `json:"class"`
	// Classes are the classes of all the differences (listed or not), in
	// that order, each once.
	Classes []Class `json:"classes"`
	// Differences are the first Options.MaxDifferences differences, in the
	// order of the files.
	Differences []Difference `json:"differences"`
	// More counts the differences found beyond those listed.
	More int `json:"more,omitempty"`
	// Partial says why only part of the files was compared, or is "".
	Partial string `json:"partial,omitempty"`
}

// A Difference is one place where the two versions differ.
type Difference struct {
	// At says where: "line 3", "member data/a.txt", "section .rodata",
	// "byte 8", "members".
	At string `json:"at"`
	// What says what differs there: "contents", "order", "mtime", "mode",
	// "uid", "only in build 1", ...
	What string `json:"what"`
	// Old and New are the two versions of what differs, as text: an
	// excerpt of a line around the difference, a field's value, bytes in
	// hexadecimal. Either may be empty (a member in one build only).
	Old string `json:"old"`
	New string `json:"new"`
	// Class is what the bytes name, and Why says how they name it.
	Class Class  `json:"class"`
	Why   string `json:"why,omitempty"`
	// Follows is set when the difference is a consequence of another: a
	// build id or checksum computed over the rest, offsets that moved.
	Follows bool `json:"follows,omitempty"`
	// Inside is the diagnosis of a member whose contents differ.
	Inside *Diagnosis `json:"inside,omitempty"`
}

// Options bound the work of a diagnosis. The zero value of a field means
// its default.
type Options struct {
	// MaxRead is the most Diagnose reads of either file, 64 MiB by default.
	MaxRead int64
	// MaxExpand is the most it takes out of either file's archive
	// members, decompressed or not, all members together (and its DWARF),
	// 64 MiB by default.
	MaxExpand int64
	// MaxMembers is the most archive members it reads from either file,
	// 100,000 by default.
	MaxMembers int
	// MaxDifferences is how many differences a Diagnosis lists, 8 by
	// default; the rest are counted.
	MaxDifferences int
	// MaxDepth is how deep it looks into archives inside archives, 3 by
	// default.
	MaxDepth int
}

func (o Options) withDefaults() Options {
	if o.MaxRead <= 0 {
		o.MaxRead = 64 << 20
	}
	if o.MaxExpand <= 0 {
		o.MaxExpand = 64 << 20
	}
	if o.MaxMembers <= 0 {
		o.MaxMembers = 100_000
	}
	if o.MaxDifferences <= 0 {
		o.MaxDifferences = 8
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 3
	}
	return o
}

// A File is one version of an output: its contents and their size.
type File struct {
	R    io.ReaderAt
	Size int64
}

// Bytes is a File of b.
func Bytes(b []byte) File { return File{R: bytes.NewReader(b), Size: int64(len(b))} }

// A Diagnoser diagnoses the outputs of one pair of builds. It is safe for
// concurrent use.
type Diagnoser struct {
	opts     Options
	classify classifier
}

// New returns a Diagnoser for outputs of the builds old and new.
func New(old, new Build, opts Options) *Diagnoser {
	return &Diagnoser{opts: opts.withDefaults(), classify: newClassifier(old, new)}
}

// DiagnoseFiles opens the two files and diagnoses them; name is the
// output's exec path.
func (d *Diagnoser) DiagnoseFiles(name, oldPath, newPath string) (*Diagnosis, error) {
	var files [2]File
	for i, path := range []string{oldPath, newPath} {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file, expected the output %s", path, name)
		}
		files[i] = File{R: f, Size: st.Size()}
	}
	diag := d.Diagnose(name, files[0], files[1])
	if diag.Partial != "" {
		// Name the files: a bound was reached, or one could not be read.
		diag.Partial = fmt.Sprintf("%s (%s, %s)", diag.Partial, oldPath, newPath)
	}
	return diag, nil
}

// Diagnose says what differs inside the two versions of the output name
// (its exec path, which breaks ties between formats only).
func (d *Diagnoser) Diagnose(name string, old, new File) *Diagnosis {
	r := run{d: d, budget: [2]*budget{newBudget(d.opts), newBudget(d.opts)}}
	sides := [2]side{
		{r: &limitedReaderAt{r: old.R, b: r.budget[0]}, size: old.Size, read: r.budget[0]},
		{r: &limitedReaderAt{r: new.R, b: r.budget[1]}, size: new.Size, read: r.budget[1]},
	}
	return r.diagnose(name, sides, 0)
}

// run is one call of Diagnose: the budgets it spends.
type run struct {
	d      *Diagnoser
	budget [2]*budget
}

// side is one version of a file being diagnosed.
type side struct {
	r    io.ReaderAt
	size int64
	// read is the budget its reads spend, for a file; nil for a member
	// already in memory.
	read *budget
}

// prefix reads the side whole, or as much of a file as its budget allows
// (cut); what was read of it already is read again for nothing.
func (s side) prefix(already int) (data []byte, cut bool, err error) {
	n := s.size
	if s.read != nil {
		s.read.read += int64(already)
		n = min(n, max(s.read.read, 0))
	}
	data = make([]byte, n)
	got, err := s.r.ReadAt(data, 0)
	if err == io.EOF && int64(got) == n {
		err = nil
	}
	return data[:got], n < s.size, err
}

// collector gathers the differences of one diagnosis, listing the first
// few and counting the rest.
type collector struct {
	max     int
	diag    Diagnosis
	classes [numClasses]bool
	primary [numClasses]bool
}

func (c *collector) add(d Difference) {
	if d.Class == None {
		d.Class = Unclassified
	}
	c.classes[d.Class] = true
	if !d.Follows {
		c.primary[d.Class] = true
	}
	if d.Inside != nil {
		for _, k := range d.Inside.Classes {
			c.classes[k] = true
		}
	}
	if len(c.diag.Differences) < c.max {
		c.diag.Differences = append(c.diag.Differences, d)
	} else {
		c.diag.More++
	}
}

// count is how many differences were added.
func (c *collector) count() int { return len(c.diag.Differences) + c.diag.More }

// insert adds d as if it had been added when the list held i differences:
// a difference whose class is known only once the others are.
func (c *collector) insert(i int, d Difference) {
	listed := len(c.diag.Differences)
	c.add(d)
	switch {
	case i >= listed:
		// Its place is the end of the list, or past it.
	case len(c.diag.Differences) > listed:
		d = c.diag.Differences[listed]
		c.diag.Differences = slices.Insert(c.diag.Differences[:listed], i, d)
	default:
		// Counted, the list being full: it takes the place of the last
		// one listed, which is counted instead.
		if d.Class == None {
			d.Class = Unclassified
		}
		c.diag.Differences = slices.Insert(c.diag.Differences[:listed-1], i, d)
	}
}

func (c *collector) partial(why string) {
	if c.diag.Partial == "" {
		c.diag.Partial = why
	}
}

func (c *collector) done() *Diagnosis {
	diag := c.diag
	if diag.Differences == nil {
		diag.Differences = []Difference{}
	}
	diag.Classes = []Class{}
	for k := Class(1); k < numClasses; k++ {
		if c.classes[k] {
			diag.Classes = append(diag.Classes, k)
		}
	}
	for k := Class(1); k < numClasses; k++ {
		if c.primary[k] {
			diag.Class = k
			break
		}
	}
	if diag.Class == None && len(diag.Classes) > 0 {
		diag.Class = diag.Classes[0] // every difference follows from another
	}
	return &diag
}

func (r *run) diagnose(name string, s [2]side, depth int) *Diagnosis {
	c := &collector{max: r.d.opts.MaxDifferences}
	var head [2][]byte
	for i := range s {
		head[i] = make([]byte, min(s[i].size, 4096))
		n, err := s[i].r.ReadAt(head[i], 0)
		head[i] = head[i][:n]
		if err != nil && err != io.EOF {
			c.partial(readError(err))
			return c.done()
		}
	}
	fa, fb := detect(name, head[0], int64(len(head[0])) < s[0].size), detect(name, head[1], int64(len(head[1])) < s[1].size)
	format := fa
	if fa != fb {
		c.add(Difference{At: "file", What: "format", Old: string(fa), New: string(fb), Class: Unclassified})
		format = Binary
	}
	if depth >= r.d.opts.MaxDepth && format != Text && format != Binary {
		format = Binary
		c.partial(fmt.Sprintf("archives nested deeper than %d are compared as bytes", r.d.opts.MaxDepth))
	}
	c.diag.Format = format
	var err error
	switch format {
	case Tar, Zip, Ar, Cpio:
		err = r.diffArchive(c, name, format, s, depth)
	case Gzip:
		err = r.diffGzip(c, name, s, depth)
	case ELF:
		err = r.diffELF(c, s)
	}
	if err != nil {
		if errors.Is(err, errBudget) {
			c.partial(err.Error())
			return c.done()
		}
		// Not what its first bytes said: compare it as bytes.
		c.partial(fmt.Sprintf("unreadable as %s (%v), compared as bytes", format, err))
		*c = collector{max: c.max, diag: Diagnosis{Partial: c.diag.Partial}}
		format = Binary
		c.diag.Format = Binary
	}
	switch format {
	case Text, Binary:
		var data [2][]byte
		for i := range s {
			var cut bool
			if data[i], cut, err = s[i].prefix(len(head[i])); err != nil {
				c.partial(readError(err))
				return c.done()
			}
			if cut {
				c.partial(fmt.Sprintf("only the first %s of build %d's compared, the most a diagnosis reads", sizeString(int64(len(data[i]))), i+1))
			}
		}
		if format == Text {
			r.d.diffText(c, data[0], data[1])
		} else {
			r.d.diffBinary(c, "", data[0], data[1])
		}
	}
	return c.done()
}

func readError(err error) string {
	if errors.Is(err, errBudget) {
		return err.Error()
	}
	return "could not read it all: " + err.Error()
}

// detect says what a file's first bytes say it is (cut: there is more);
// name breaks ties.
func detect(name string, head []byte, cut bool) Format {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return ELF
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return Gzip
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return Zip
	case bytes.HasPrefix(head, []byte(arMagic)):
		return Ar
	case bytes.HasPrefix(head, []byte(cpioNewc)), bytes.HasPrefix(head, []byte(cpioCRC)), bytes.HasPrefix(head, []byte(cpioODC)):
		return Cpio
	case len(head) >= 263 && bytes.Equal(head[257:262], []byte("ustar")):
		return Tar
	case len(head) >= 512 && hasSuffix(name, ".tar") && tarChecksumOK(head[:512]):
		return Tar // a v7 tar, without the ustar magic
	case isText(head, cut):
		return Text
	}
	return Binary
}

func hasSuffix(name string, suffixes ...string) bool {
	return slices.ContainsFunc(suffixes, func(s string) bool { return len(name) >= len(s) && name[len(name)-len(s):] == s })
}

// isText says whether head looks like text: no NUL byte (as git decides)
// and valid UTF-8, but perhaps for a character cut at the end (cut: the
// file goes on).
func isText(head []byte, cut bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 {
			return cut && !utf8.FullRune(head)
		}
		head = head[n:]
	}
	return true
}

// tarChecksumOK checks a 512-byte tar header's checksum, which every tar
// format has.
func tarChecksumOK(h []byte) bool {
	want, ok := parseOctal(h[148:156])
	if !ok {
		return false
	}
	var sum int64
	for i, c := range h {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	return sum == want
}

// errBudget is returned, wrapped, when a bound of Options is reached.
var errBudget = errors.New("budget reached")

// budget is what one side of a diagnosis may still read and decompress.
type budget struct {
	read, expand, members int64
	maxRead, maxExpand    int64
	maxMembers            int64
}

func newBudget(o Options) *budget {
	return &budget{read: o.MaxRead, expand: o.MaxExpand, members: int64(o.MaxMembers),
		maxRead: o.MaxRead, maxExpand: o.MaxExpand, maxMembers: int64(o.MaxMembers)}
}

type budgetError struct {
	gerund, verb string // "reading", "reads"
	limit        int64
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("stopped after %s %s of one version, the most a diagnosis %s", e.gerund, sizeString(e.limit), e.verb)
}
func (e *budgetError) Is(target error) bool { return target == errBudget }

func (b *budget) spendRead(n int) error {
	b.read -= int64(n)
	if b.read < 0 {
		return &budgetError{"reading", "reads", b.maxRead}
	}
	return nil
}

func (b *budget) spendMember() error {
	b.members--
	if b.members < 0 {
		return fmt.Errorf("stopped after %d members, the most a diagnosis reads: %w", b.maxMembers, errBudget)
	}
	return nil
}

// readAll reads r whole, spending the decompression budget.
func (b *budget) readAll(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, b.expand+1))
	b.expand -= n
	if b.expand < 0 {
		return nil, &budgetError{"decompressing", "decompresses", b.maxExpand}
	}
	return buf.Bytes(), err
}

// limitedReaderAt is a side's file, read within its budget.
type limitedReaderAt struct {
	r io.ReaderAt
	b *budget
}

func (l *limitedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := l.b.spendRead(len(p)); err != nil {
		return 0, err
	}
	return l.r.ReadAt(p, off)
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
