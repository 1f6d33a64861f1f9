package spec

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/glob"
	"github.com/ahab-go/ahab/internal/jsonfile"
)

// FileEntry says what reading a file of the machine gives: /dev/urandom
// random bytes, /etc/hostname the machine's name. Path is an absolute path
// or a pattern of them.
type FileEntry struct {
	Path    string
	glob    glob.Glob
	Effects []Effect
	Origin  string
}

// Function says what a function, builtin or variable of a language gives
// (time.time the clock, $RANDOM a random number, Perl's keys an order that
// follows a hash seed), what it runs (os.system a shell script), and what
// its result is (os.getcwd a path, tarfile.open a tarfile.TarFile).
type Function struct {
	Language string
	Name     string
	Effects  []Effect
	// Returns is "path" for a function whose result is a path (a value
	// that reaches an output only when printed or recorded), or the name
	// of the class of its result, whose methods are Name's of that class
	// (tarfile.open returns "tarfile.TarFile", whose add is
	// "tarfile.TarFile.add").
	Returns string
	// Runs says the function runs a program: "argv" (its first argument
	// is an argument vector), or a language whose code its first argument
	// is ("sh" for os.system).
	Runs    string
	Removes []effect.Value
	// Sets are facts the call establishes for the code after it, when
	// their condition holds: random.seed(0) sets seeded:random.
	Sets []Fact
	// Opens names the argument that is the path of a file the call opens
	// (open, tarfile.open, zipfile.ZipFile): its result writes into that
	// file when opened for writing. Writes names the argument that is the
	// path of a file the call writes (shutil.copy's destination,
	// py_compile's cfile). Each is a position from 0, or a keyword, or
	// both as "1|dst".
	Opens, Writes string
	Origin        string
}

// Position is the position from 0 that an Opens or a Writes names ("1",
// "1|dst"), when it names one.
func Position(s string) (int, bool) {
	pos, _, _ := strings.Cut(s, "|")
	i, err := strconv.Atoi(pos)
	return i, err == nil
}

func (r reader) files(origin string) ([]FileEntry, error) {
	d := r.d
	var out []FileEntry
	err := d.Object("an object from paths to file entries", func(p string) error {
		if !strings.HasPrefix(p, "/") {
			return d.Errorf("files: %s is not an absolute path, expected a file of the machine such as /dev/urandom", jsonfile.Backquote(p))
		}
		e := FileEntry{Path: p, glob: glob.For(r.mode)(p), Origin: origin}
		err := d.Fields("a file entry", fileFields, func(string) error {
			return d.Array("a sequence of effects", func() error {
				ef, err := r.effect()
				e.Effects = append(e.Effects, ef)
				return err
			})
		})
		out = append(out, e)
		return err
	})
	slices.SortFunc(out, func(a, b FileEntry) int { return strings.Compare(a.Path, b.Path) })
	return out, err
}

func (r reader) functions(origin string) ([]Function, error) {
	d := r.d
	var out []Function
	err := d.Object("an object from languages to functions", func(lang string) error {
		return d.Object("an object from names to function entries", func(name string) error {
			f := Function{Language: lang, Name: name, Origin: origin}
			err := d.Fields("a function entry", functionFields, func(field string) error {
				var err error
				switch field {
				case "effects":
					err = d.Array("a sequence of effects", func() error {
						e, err := r.effect()
						f.Effects = append(f.Effects, e)
						return err
					})
				case "returns":
					f.Returns, err = d.String("path, or the name of a class")
				case "runs":
					f.Runs, err = d.String("argv, or a language")
				case "removes":
					var names []string
					if names, err = d.Strings("a sequence of values"); err == nil {
						for _, n := range names {
							v, perr := effect.Parse(n)
							if perr != nil {
								return d.Errorf("removes: %v", perr)
							}
							f.Removes = append(f.Removes, v)
						}
					}
				case "sets":
					err = d.Array("a sequence of facts", func() error {
						fact, err := r.fact()
						f.Sets = append(f.Sets, fact)
						return err
					})
				case "opens":
					f.Opens, err = d.String("the argument that names the file opened")
				case "writes":
					f.Writes, err = d.String("the argument that names the file written")
				}
				return err
			})
			out = append(out, f)
			return err
		})
	})
	slices.SortFunc(out, func(a, b Function) int {
		return strings.Compare(a.Language+"\x00"+a.Name, b.Language+"\x00"+b.Name)
	})
	return out, err
}

// tables are the library's files and functions; later entries replace
// earlier ones of the same name, as programs do.
type tables struct {
	files     []FileEntry
	functions map[string]map[string]Function
}

func (t *tables) add(f *File) {
	for _, e := range f.Files {
		t.files = slices.DeleteFunc(t.files, func(x FileEntry) bool { return x.Path == e.Path })
		t.files = append(t.files, e)
	}
	for _, fn := range f.Functions {
		if t.functions == nil {
			t.functions = map[string]map[string]Function{}
		}
		if t.functions[fn.Language] == nil {
			t.functions[fn.Language] = map[string]Function{}
		}
		t.functions[fn.Language][fn.Name] = fn
	}
}

// File finds what reading the file at an absolute path gives; the newest
// entry whose pattern matches answers.
func (l *Library) File(p string) (FileEntry, bool) {
	for i := len(l.tables.files) - 1; i >= 0; i-- {
		if l.tables.files[i].glob.Match(p) {
			return l.tables.files[i], true
		}
	}
	return FileEntry{}, false
}

// Function finds a function of a language by name.
func (l *Library) Function(language, name string) (Function, bool) {
	f, ok := l.tables.functions[language][name]
	return f, ok
}

// Functions lists the functions of a language, sorted by name.
func (l *Library) Functions(language string) []Function {
	fs := make([]Function, 0, len(l.tables.functions[language]))
	for _, f := range l.tables.functions[language] {
		fs = append(fs, f)
	}
	slices.SortFunc(fs, func(a, b Function) int { return strings.Compare(a.Name, b.Name) })
	return fs
}

// Apply is what an effect comes to on a set of facts: whether it applies,
// and if so whether a fact neutralises it (and which).
func (e Effect) Apply(facts []string) (applies bool, neutralisedBy string) {
	if !e.When.Holds(facts) {
		return false, ""
	}
	by, _ := firstMatch(e.Unless, facts)
	return true, by
}
