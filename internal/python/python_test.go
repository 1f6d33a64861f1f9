package python

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// fakeRunner stands for the readers of other languages: a shell command
// that runs date prints the time; one that writes > out writes it there.
// It records what it was given.
type fakeRunner struct{ ran []code.Program }

func (f *fakeRunner) Run(p code.Program) code.Outcome {
	f.ran = append(f.ran, p)
	var out code.Outcome
	if strings.Contains(p.Text, "date") {
		r := effect.Reach{Value: effect.Clock, Text: "date", Because: "it prints the current time", Site: p.Site}
		if strings.Contains(p.Text, "> out") {
			out.Files = append(out.Files, r)
		} else {
			out.Stdout = append(out.Stdout, r)
		}
	}
	return out
}

func (f *fakeRunner) Uses(string, string) []string     { return nil }
func (f *fakeRunner) UsesFile(string, string) []string { return nil }

// program is a row's program: inline code with the outputs out,
// out.tar.gz, dist/pkg.tar.gz and the directory outdir.
type program struct {
	args  []string // "?" is an argument the reader cannot know
	env   []string
	files codetest.Inputs
	file  string
}

func read(t *testing.T, src string, p program) (code.Outcome, *fakeRunner) {
	t.Helper()
	prog := code.Program{Language: code.Python, Text: src, Outputs: []string{"out", "out.tar.gz", "dist/pkg.tar.gz", "outdir"}, Env: p.env, File: p.file, Site: effect.Site{Line: 1}}
	if p.file != "" {
		prog.Site = effect.Site{File: p.file, Line: 1}
	}
	for _, a := range p.args {
		prog.Args = append(prog.Args, code.Arg{Text: a, Known: a != "?"})
	}
	runner := &fakeRunner{}
	env := code.Env{Library: spec.Builtin(), Runner: runner}
	if p.files != nil {
		env.Files = p.files
	}
	return Reader{}.Read(prog, env), runner
}

// found renders what reaches an output: "stdout VALUE TEXT" or
// "file VALUE TEXT".
func found(out code.Outcome) []string {
	var got []string
	for _, r := range out.Stdout {
		got = append(got, "stdout "+r.Value.String()+" "+r.Text)
	}
	for _, r := range out.Files {
		got = append(got, "file "+r.Value.String()+" "+r.Text)
	}
	return got
}

type reachCase struct {
	name string
	src  string
	want []string
	p    program
}

func runReachCases(t *testing.T, cases []reachCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("two cases named %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			out, _ := read(t, c.src, c.p)
			if got := found(out); !slices.Equal(got, c.want) {
				t.Errorf("%s\ngot  %q\nwant %q\nunread %q", c.src, got, c.want, out.Unread)
			}
		})
	}
}

// TestClock: the time, and what fixes it.
func TestClock(t *testing.T) {
	runReachCases(t, []reachCase{
		{"time.time() printed", "import time\nprint(time.time())", []string{"stdout clock time.time()"}, program{}},
		{"time.time() to stderr", "import sys, time\nprint(time.time(), file=sys.stderr)", nil, program{}},
		{"time.time() written to stderr", "import sys, time\nsys.stderr.write(str(time.time()))", nil, program{}},
		{"time.time() compared", "import time\nif time.time() > 0:\n    print('late')", nil, program{}},
		{"time.time() into a file that is not an output", "import time\nopen('/tmp/log', 'w').write(str(time.time()))", nil, program{}},
		{"time.time() into an output", "import time\nwith open('out', 'w') as f:\n    f.write(str(time.time()))", []string{"file clock time.time()"}, program{}},
		{"time.time() not used", "import time\nt = time.time()\nprint('done')", nil, program{}},
		{"time overwritten before printing", "import time\nt = time.time()\nt = 0\nprint(t)", nil, program{}},
		{"time module aliased", "import time as t\nprint(t.time())", []string{"stdout clock t.time()"}, program{}},
		{"time function imported by name", "from time import time as now\nprint(now())", []string{"stdout clock now()"}, program{}},
		{"strftime of now", "import time\nprint(time.strftime('%Y'))", []string{"stdout clock time.strftime('%Y')"}, program{}},
		{"strftime of a fixed time", "import time\nprint(time.strftime('%Y', time.gmtime(0)))", nil, program{}},
		{"strftime of localtime now", "import time\nprint(time.strftime('%Y', time.localtime()))", []string{"stdout clock time.localtime()"}, program{}},
		{"ctime of now", "import time\nprint(time.ctime())", []string{"stdout clock time.ctime()"}, program{}},
		{"ctime of a fixed time", "import time\nprint(time.ctime(0))", nil, program{}},
		{"datetime now", "import datetime\nprint(datetime.datetime.now().isoformat())", []string{"stdout clock datetime.datetime.now()"}, program{}},
		{"datetime imported by name", "from datetime import datetime\nprint(datetime.now().strftime('%Y'))", []string{"stdout clock datetime.now()"}, program{}},
		{"datetime utcnow", "import datetime as dt\nstamp = dt.datetime.utcnow()\nprint(f'built {stamp:%Y-%m-%d}')", []string{"stdout clock dt.datetime.utcnow()"}, program{}},
		{"datetime fixed", "import datetime\nprint(datetime.datetime(2020, 1, 1).isoformat())", nil, program{}},
		{"date today", "from datetime import date\nprint(date.today())", []string{"stdout clock date.today()"}, program{}},
		{"fromtimestamp of now", "import datetime, time\nprint(datetime.datetime.fromtimestamp(time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"fromtimestamp fixed", "import datetime\nprint(datetime.datetime.fromtimestamp(0))", nil, program{}},
		{"SOURCE_DATE_EPOCH unset falls back on the time", "import os, time\nprint(int(os.environ.get('SOURCE_DATE_EPOCH', time.time())))", []string{"stdout clock time.time()"}, program{}},
		{"SOURCE_DATE_EPOCH set", "import os, time\nprint(int(os.environ.get('SOURCE_DATE_EPOCH', time.time())))", nil, program{env: []string{"SOURCE_DATE_EPOCH=0"}}},
		{"SOURCE_DATE_EPOCH tested with in, set", "import os, time\nif 'SOURCE_DATE_EPOCH' in os.environ:\n    t = time.gmtime(int(os.environ['SOURCE_DATE_EPOCH']))\nelse:\n    t = time.localtime()\nprint(time.strftime('%Y', t))", nil, program{env: []string{"SOURCE_DATE_EPOCH=1700000000"}}},
		{"SOURCE_DATE_EPOCH tested with not in, set", "import os, time\nif 'SOURCE_DATE_EPOCH' not in os.environ:\n    t = time.localtime()\nelse:\n    t = time.gmtime(int(os.environ['SOURCE_DATE_EPOCH']))\nprint(time.strftime('%Y', t))", nil, program{env: []string{"SOURCE_DATE_EPOCH=1700000000"}}},
		{"SOURCE_DATE_EPOCH tested with in, not given", "import os, time\nif 'SOURCE_DATE_EPOCH' in os.environ:\n    t = time.gmtime(int(os.environ['SOURCE_DATE_EPOCH']))\nelse:\n    t = time.localtime()\nprint(time.strftime('%Y', t))", []string{"stdout clock time.localtime()"}, program{}},
		{"SOURCE_DATE_EPOCH deleted, then tested with in", "import os, time\ndel os.environ['SOURCE_DATE_EPOCH']\nif 'SOURCE_DATE_EPOCH' in os.environ:\n    t = 0\nelse:\n    t = time.time()\nprint(t)", []string{"stdout clock time.time()"}, program{env: []string{"SOURCE_DATE_EPOCH=0"}}},
		{"SOURCE_DATE_EPOCH set by the program", "import os, time\nos.environ['SOURCE_DATE_EPOCH'] = '0'\nprint(int(os.environ.get('SOURCE_DATE_EPOCH', time.time())))", nil, program{}},
		{"perf_counter printed", "import time\nstart = time.perf_counter()\nprint('took', time.perf_counter() - start)", []string{"stdout clock time.perf_counter()", "stdout clock time.perf_counter()"}, program{}},
		{"perf_counter logged", "import logging, time\nstart = time.perf_counter()\nlogging.info('took %s', time.perf_counter() - start)", nil, program{}},
		{"time zone printed", "import time\nprint(time.timezone)", []string{"stdout timezone time.timezone"}, program{}},
		{"email date of now", "import email.utils\nprint(email.utils.formatdate())", []string{"stdout clock email.utils.formatdate()"}, program{}},
		{"email date given", "import email.utils\nprint(email.utils.formatdate(0))", nil, program{}},
	})
}

// TestRandom: random values, and the seeds that fix them.
func TestRandom(t *testing.T) {
	runReachCases(t, []reachCase{
		{"random printed", "import random\nprint(random.random())", []string{"stdout random random.random()"}, program{}},
		{"random after seed(42)", "import random\nrandom.seed(42)\nprint(random.random())", nil, program{}},
		{"random after seed()", "import random\nrandom.seed()\nprint(random.random())", []string{"stdout random random.random()"}, program{}},
		{"random after seed(None)", "import random\nrandom.seed(None)\nprint(random.random())", []string{"stdout random random.random()"}, program{}},
		{"random after a seed of the time", "import random, time\nrandom.seed(time.time())\nprint(random.randint(1, 6))", []string{"stdout random random.randint(1, 6)"}, program{}},
		{"random after a seed from an argument", "import random, sys\nrandom.seed(int(sys.argv[1]))\nprint(random.choice('abc'))", nil, program{args: []string{"?"}}},
		{"random after a keyword seed", "import random\nrandom.seed(a=7)\nprint(random.random())", nil, program{}},
		{"seed in one branch only", "import random, sys\nif sys.argv[1] == 'x':\n    random.seed(1)\nprint(random.random())", []string{"stdout random random.random()"}, program{args: []string{"?"}}},
		{"random.Random unseeded", "import random\nr = random.Random()\nprint(r.random())", []string{"stdout random r.random()"}, program{}},
		{"random.Random seeded", "import random\nr = random.Random(42)\nprint(r.random())", nil, program{}},
		{"random.Random seeded later", "import random\nr = random.Random()\nr.seed(1)\nprint(r.random())", nil, program{}},
		{"shuffle changes the list", "import random\nnames = ['a', 'b', 'c']\nrandom.shuffle(names)\nprint(names)", []string{"stdout random random.shuffle(names)"}, program{}},
		{"shuffle after seed", "import random\nrandom.seed(0)\nnames = ['a', 'b', 'c']\nrandom.shuffle(names)\nprint(names)", nil, program{}},
		{"shuffle by a generator that may be the module's", "import random, sys\nrng = random.Random(42) if sys.argv[1] == 'x' else random\nwords = ['a', 'b']\nrng.shuffle(words)\nprint(words)", []string{"stdout random rng.shuffle(words)"}, program{args: []string{"?"}}},
		{"shuffle by one of two seeded generators", "import random, sys\nrng = random.Random(42) if sys.argv[1] == 'x' else random.Random(7)\nwords = ['a', 'b']\nrng.shuffle(words)\nprint(words)", nil, program{args: []string{"?"}}},
		{"SystemRandom ignores the seed", "import random\nrandom.seed(0)\nprint(random.SystemRandom().random())", []string{"stdout urandom random.SystemRandom().random()"}, program{}},
		{"secrets", "import secrets\nprint(secrets.token_hex(8))", []string{"stdout urandom secrets.token_hex(8)"}, program{}},
		{"uuid4", "import uuid\nprint(uuid.uuid4())", []string{"stdout random uuid.uuid4()"}, program{}},
		{"uuid1 as a str", "import uuid\nprint(str(uuid.uuid1()))", []string{"stdout random uuid.uuid1()"}, program{}},
		{"uuid5 of a name", "import uuid\nprint(uuid.uuid5(uuid.NAMESPACE_DNS, 'example.com'))", nil, program{}},
		{"uuid3 hex", "import uuid\nprint(uuid.uuid3(uuid.NAMESPACE_URL, 'x').hex)", nil, program{}},
		{"urandom", "import os\nprint(os.urandom(8).hex())", []string{"stdout urandom os.urandom(8)"}, program{}},
		{"dev urandom read", "with open('/dev/urandom', 'rb') as f:\n    print(f.read(8))", []string{"stdout urandom open('/dev/urandom', 'rb')"}, program{}},
		{"dev zero read", "with open('/dev/zero', 'rb') as f:\n    print(f.read(8))", nil, program{}},
	})
}

// TestMachine: the process, the account, the host, the directory, the
// processors, temporary names.
func TestMachine(t *testing.T) {
	runReachCases(t, []reachCase{
		{"pid", "import os\nprint(os.getpid())", []string{"stdout pid os.getpid()"}, program{}},
		{"parent pid", "import os\nprint('ppid', os.getppid())", []string{"stdout pid os.getppid()"}, program{}},
		{"pid in a temporary name only", "import os\nopen('/tmp/x.%d' % os.getpid(), 'w').write('hi')\nprint('ok')", nil, program{}},
		{"user", "import getpass\nprint(getpass.getuser())", []string{"stdout user getpass.getuser()"}, program{}},
		{"uid", "import os\nprint(os.getuid())", []string{"stdout user os.getuid()"}, program{}},
		{"account of the uid", "import os, pwd\nprint(pwd.getpwuid(os.getuid()).pw_name)", []string{"stdout user os.getuid()", "stdout user pwd.getpwuid(os.getuid())"}, program{}},
		{"home", "import os\nprint(os.path.expanduser('~/cache'))", []string{"stdout user os.path.expanduser('~/cache')"}, program{}},
		{"no home", "import os\nprint(os.path.expanduser('cache'))", nil, program{}},
		{"hostname", "import socket\nprint(socket.gethostname())", []string{"stdout hostname socket.gethostname()"}, program{}},
		{"platform node", "import platform\nprint(platform.node())", []string{"stdout hostname platform.node()"}, program{}},
		{"uname", "import os\nprint(os.uname().release)", []string{"stdout hostname os.uname()", "stdout uname os.uname()"}, program{}},
		{"platform system", "import platform\nprint(platform.system(), platform.machine())", nil, program{}},
		{"cwd printed", "import os\nprint(os.getcwd())", []string{"stdout pwd os.getcwd()"}, program{}},
		{"cwd names the file written", "import os\nwith open(os.path.join(os.getcwd(), 'out'), 'w') as f:\n    f.write('x')", nil, program{}},
		{"cwd into the file written", "import os\nwith open(os.path.join(os.getcwd(), 'out'), 'w') as f:\n    f.write(os.getcwd())", []string{"file pwd os.getcwd()"}, program{}},
		{"abspath of a relative path", "import os\nprint(os.path.abspath('data'))", []string{"stdout pwd os.path.abspath('data')"}, program{}},
		{"abspath of __file__, which is absolute", "import os\nprint(os.path.dirname(os.path.abspath(__file__)))", []string{"stdout pwd __file__"}, program{file: "tools/gen.py"}},
		{"abspath of a temporary directory", "import os, tempfile\nd = tempfile.mkdtemp()\nopen('out', 'w').write(os.path.basename(os.path.abspath(d)))", []string{"file tempname tempfile.mkdtemp()"}, program{}},
		{"abspath of an absolute path", "import os\nprint(os.path.abspath('/usr/share'))", nil, program{}},
		{"realpath", "import os, sys\nprint(os.path.realpath(sys.argv[1]))", []string{"stdout pwd os.path.realpath(sys.argv[1])"}, program{args: []string{"in.txt"}}},
		{"relpath of abspath", "import os, sys\nprint(os.path.relpath(os.path.abspath(sys.argv[1])))", nil, program{args: []string{"data/plan.txt"}}},
		{"dirname of relpath of abspath", "import os, sys\nprint(os.path.dirname(os.path.relpath(os.path.abspath(sys.argv[1]))))", nil, program{args: []string{"data/plan.txt"}}},
		{"relpath from a directory under the working one", "import os\nprint(os.path.relpath(os.path.join(os.getcwd(), 'a/b'), 'a'))", nil, program{}},
		{"relpath of a path outside the working directory", "import os\nprint(os.path.relpath('/usr/share/x'))", []string{"stdout pwd os.path.relpath('/usr/share/x')"}, program{}},
		{"relpath of a path not known", "import os, sys\nprint(os.path.relpath(sys.argv[1]))", []string{"stdout pwd os.path.relpath(sys.argv[1])"}, program{args: []string{"?"}}},
		{"relpath within a temporary directory", "import os, tempfile\nd = tempfile.mkdtemp()\nprint(os.path.relpath(os.path.join(d, 'x'), d))", nil, program{}},
		{"relpath of a temporary path", "import os, tempfile\nd = tempfile.mkdtemp()\nprint(os.path.relpath(d))", []string{"stdout tempname tempfile.mkdtemp()", "stdout pwd os.path.relpath(d)"}, program{}},
		{"basename of the working directory", "import os\nprint(os.path.basename(os.getcwd()))", nil, program{}},
		{"name of Path.cwd()", "from pathlib import Path\nprint(Path.cwd().name)", nil, program{}},
		{"dirname of the working directory", "import os\nprint(os.path.dirname(os.getcwd()))", []string{"stdout pwd os.getcwd()"}, program{}},
		{"relative path kept", "import sys\nprint(sys.argv[1])", nil, program{args: []string{"in.txt"}}},
		{"pathlib cwd", "from pathlib import Path\nprint(Path.cwd())", []string{"stdout pwd Path.cwd()"}, program{}},
		{"pathlib resolve", "from pathlib import Path\nprint(Path('x').resolve())", []string{"stdout pwd Path('x').resolve()"}, program{}},
		{"pathlib absolute", "from pathlib import Path\nprint(Path('x').absolute())", []string{"stdout pwd Path('x').absolute()"}, program{}},
		{"pathlib name", "from pathlib import Path\nprint(Path('a/b.txt').name)", nil, program{}},
		{"__file__ printed", "print(__file__)", []string{"stdout pwd __file__"}, program{file: "tools/gen.py"}},
		{"__file__ names a data file", "import os\nhere = os.path.dirname(__file__)\nprint(open(os.path.join(here, 'data.txt')).read())", nil, program{file: "tools/gen.py"}},
		{"__file__'s base name", "import os\nprint(os.path.basename(__file__))", nil, program{file: "tools/gen.py"}},
		{"cpu count", "import os\nprint(os.cpu_count())", []string{"stdout cpus os.cpu_count()"}, program{}},
		{"cpu count as workers", "import multiprocessing\nworkers = multiprocessing.cpu_count()\nprint('done')", nil, program{}},
		{"temporary directory printed", "import tempfile\nprint(tempfile.mkdtemp())", []string{"stdout tempname tempfile.mkdtemp()"}, program{}},
		{"file in a temporary directory", "import os, tempfile, time\nd = tempfile.mkdtemp()\nopen(os.path.join(d, 'x'), 'w').write(str(time.time()))", nil, program{}},
		{"temporary file copied to an output", "import os, shutil, tempfile, time\nd = tempfile.mkdtemp()\np = os.path.join(d, 'x')\nopen(p, 'w').write(str(time.time()))\nshutil.copy(p, 'out')", []string{"file clock time.time()"}, program{}},
		{"temporary directory as a context", "import os, tempfile\nwith tempfile.TemporaryDirectory() as d:\n    open(os.path.join(d, 'x'), 'w').write(str(os.getpid()))", nil, program{}},
	})
}

// TestListings: directory order, and the sorting that fixes it.
func TestListings(t *testing.T) {
	runReachCases(t, []reachCase{
		{"listdir printed", "import os\nprint(os.listdir('.'))", []string{"stdout order os.listdir('.')"}, program{}},
		{"listdir sorted", "import os\nprint(sorted(os.listdir('.')))", nil, program{}},
		{"listdir sorted in place", "import os\nnames = os.listdir('.')\nnames.sort()\nprint(names)", nil, program{}},
		{"listdir sorted in place in a branch not known", "import os, sys\nnames = os.listdir('.')\nif sys.argv[1] == 'x':\n    names.sort()\nprint(names)", []string{"stdout order os.listdir('.')"}, program{args: []string{"?"}}},
		{"listdir sorted in place in both branches", "import os, sys\nnames = os.listdir('.')\nif sys.argv[1] == 'x':\n    names.sort()\nelse:\n    names.sort(reverse=True)\nprint(names)", nil, program{args: []string{"?"}}},
		{"listdir sorted in place in a branch taken", "import os, sys\nnames = os.listdir('.')\nif sys.argv[1] == 'x':\n    names.sort()\nprint(names)", nil, program{args: []string{"x"}}},
		{"listdir sorted anew in a branch", "import os, sys\nif sys.argv[1] == 'x':\n    names = sorted(os.listdir('.'))\nelse:\n    names = []\nprint(names)", nil, program{args: []string{"?"}}},
		{"walk's directories sorted in a branch not known", "import os, sys\nfor root, dirs, files in os.walk('d'):\n    if sys.argv[1] == 'x':\n        dirs.sort()\n    for f in sorted(files):\n        print(os.path.join(root, f))", []string{"stdout order os.walk('d')"}, program{args: []string{"?"}}},
		{"listdir sorted and dropped", "import os\nnames = os.listdir('.')\nsorted(names)\nprint(names)", []string{"stdout order os.listdir('.')"}, program{}},
		{"listdir sorted later", "import os\nnames = os.listdir('.')\nprint(sorted(names))", nil, program{}},
		{"lists of listings sorted", "import os\nprint(sorted([os.listdir('a'), os.listdir('b')]))", []string{"stdout order os.listdir('a')", "stdout order os.listdir('b')"}, program{}},
		{"listdir counted", "import os\nprint(len(os.listdir('.')))", nil, program{}},
		{"listdir in a loop", "import os\nfor name in os.listdir('data'):\n    print(name)", []string{"stdout order os.listdir('data')"}, program{}},
		{"listdir sorted in a loop", "import os\nfor name in sorted(os.listdir('data')):\n    print(name)", nil, program{}},
		{"listdir comprehension", "import os\nprint([n.upper() for n in os.listdir('d')])", []string{"stdout order os.listdir('d')"}, program{}},
		{"listdir comprehension sorted", "import os\nprint(sorted([n.upper() for n in os.listdir('d')]))", nil, program{}},
		{"glob", "import glob\nprint('\\n'.join(glob.glob('*.txt')))", []string{"stdout order glob.glob('*.txt')"}, program{}},
		{"glob sorted", "import glob\nprint('\\n'.join(sorted(glob.glob('*.txt'))))", nil, program{}},
		{"walk", "import os\nfor root, dirs, files in os.walk('d'):\n    for f in files:\n        print(os.path.join(root, f))", []string{"stdout order os.walk('d')"}, program{}},
		{"pathlib iterdir", "from pathlib import Path\nfor p in Path('d').iterdir():\n    print(p.name)", []string{"stdout order Path('d').iterdir()"}, program{}},
		{"pathlib glob sorted", "from pathlib import Path\nfor p in sorted(Path('d').glob('*.py')):\n    print(p)", nil, program{}},
		{"scandir", "import os\nfor e in os.scandir('d'):\n    print(e.name)", []string{"stdout order os.scandir('d')"}, program{}},
		{"iglob sorted", "import glob\nfor p in sorted(glob.iglob('d/*')):\n    print(p)", nil, program{}},
		{"walk with its directories sorted in place", "import os\nfor root, dirs, files in os.walk('d'):\n    dirs.sort()\n    for f in sorted(files):\n        print(os.path.join(root, f))", nil, program{}},
		{"walk with its files unsorted", "import os\nfor root, dirs, files in os.walk('d'):\n    dirs.sort()\n    for f in files:\n        print(os.path.join(root, f))", []string{"stdout order os.walk('d')"}, program{}},
		{"walk with a sorted copy of its directories", "import os\nfor root, dirs, files in os.walk('d'):\n    for f in sorted(files):\n        print(root, sorted(dirs), f)", []string{"stdout order os.walk('d')"}, program{}},
		{"walk sorted whole", "import os\nfor root, dirs, files in sorted(os.walk('d')):\n    print(root)", nil, program{}},
		{"listing into an output", "import os\nwith open('out', 'w') as f:\n    for n in os.listdir('d'):\n        f.write(n + '\\n')", []string{"file order os.listdir('d')"}, program{}},
		{"listing joined sorted into an output", "import os\nwith open('out', 'w') as f:\n    f.write('\\n'.join(sorted(os.listdir('d'))))", nil, program{}},
	})
}

// TestMetadata: files' times and owners, and the environment as a whole.
func TestMetadata(t *testing.T) {
	runReachCases(t, []reachCase{
		{"stat mtime", "import os\nprint(os.stat('in').st_mtime)", []string{"stdout mtime os.stat('in').st_mtime"}, program{}},
		{"stat size", "import os\nprint(os.stat('in').st_size)", nil, program{}},
		{"stat whole", "import os\nprint(os.stat('in'))", []string{"stdout filemeta os.stat('in')"}, program{}},
		{"stat owner", "import os\nst = os.stat('in')\nprint(st.st_uid)", []string{"stdout owner st.st_uid"}, program{}},
		{"getmtime", "import os\nprint(os.path.getmtime('in'))", []string{"stdout mtime os.path.getmtime('in')"}, program{}},
		{"getsize", "import os\nprint(os.path.getsize('in'))", nil, program{}},
		{"pathlib stat", "from pathlib import Path\nprint(Path('in').stat().st_mtime)", []string{"stdout mtime Path('in').stat().st_mtime"}, program{}},
		{"environment printed", "import os\nprint(os.environ)", []string{"stdout environment os.environ"}, program{}},
		{"environment copied and printed", "import os\nprint(dict(os.environ))", []string{"stdout environment os.environ"}, program{}},
		{"environment items", "import os\nfor k, v in os.environ.items():\n    print(k, v)", []string{"stdout environment os.environ.items()"}, program{}},
		{"environ imported by name", "from os import environ\nprint(environ['HOME'], environ.get('X'))", nil, program{}},
		{"environ imported by name printed", "from os import environ\nprint(environ)", []string{"stdout environment environ"}, program{}},
		{"one variable", "import os\nprint(os.environ.get('LANG'))", nil, program{}},
		{"one variable subscripted", "import os\nprint(os.environ['PATH'])", nil, program{}},
		{"getenv", "import os\nprint(os.getenv('HOME', '/'))", nil, program{}},
	})
}

// TestModes: a file's permissions vary only where the checkout gave
// them: a source's follow the umask of whoever checked it out, while a
// file the program made, or Bazel generated, has the build's.
func TestModes(t *testing.T) {
	src := codetest.Inputs{"data/a.txt": "", "bazel-out/k8-fastbuild/bin/gen.txt": ""}
	stat := "import os, sys\nprint(oct(os.stat(sys.argv[1]).st_mode))"
	mode := []string{"stdout mode os.stat(sys.argv[1]).st_mode"}
	runReachCases(t, []reachCase{
		{"the mode of a source", stat, mode, program{args: []string{"data/a.txt"}, files: src}},
		{"the mode of a source's directory", stat, mode, program{args: []string{"data"}, files: src}},
		{"the mode of a generated input", stat, nil, program{args: []string{"bazel-out/k8-fastbuild/bin/gen.txt"}, files: src}},
		{"the mode of a file of the machine", stat, nil, program{args: []string{"/etc/hosts"}, files: src}},
		{"the mode of a file not known", stat, mode, program{args: []string{"?"}, files: src}},
		{"the mode of the file it wrote", "import os, sys\nwith open(sys.argv[1], 'w') as f:\n    f.write('x')\nprint(oct(os.stat(sys.argv[1]).st_mode))", nil, program{args: []string{"data/a.txt"}, files: src}},
		{"the mode of a copy made with copyfile", "import os, shutil\nshutil.copyfile('data/a.txt', 'copy.txt')\nprint(os.stat('copy.txt').st_mode)", nil, program{files: src}},
		{"the mode of a copy made with copy", "import os, shutil\nshutil.copy('data/a.txt', 'copy.txt')\nprint(os.stat('copy.txt').st_mode)", []string{"stdout mode os.stat('copy.txt').st_mode"}, program{files: src}},
		{"the mode of a copy made with copy2", "import os, shutil\nshutil.copy2('data/a.txt', 'copy.txt')\nprint(os.stat('copy.txt').st_mode)", []string{"stdout mode os.stat('copy.txt').st_mode"}, program{files: src}},
		{"the mode of a tree copied", "import os, shutil\nshutil.copytree('data', 'tree')\nprint(os.stat('tree/a.txt').st_mode)", []string{"stdout mode os.stat('tree/a.txt').st_mode"}, program{files: src}},
		{"the mode of a tree copied with copyfile", "import os, shutil\nshutil.copytree('data', 'tree', copy_function=shutil.copyfile)\nprint(os.stat('tree/a.txt').st_mode)", nil, program{files: src}},
		{"the mode of a source after chmod", "import os\nos.chmod('data/a.txt', 0o644)\nprint(os.stat('data/a.txt').st_mode)", nil, program{files: src}},
		{"the mode of a copy in a temporary directory", "import os, shutil, tempfile\nd = tempfile.mkdtemp()\nshutil.copy2('data/a.txt', d)\nprint(os.stat(os.path.join(d, 'a.txt')).st_mode)", nil, program{files: src}},
		{"Path.stat of a source", "from pathlib import Path\nprint(Path('data/a.txt').stat().st_mode)", []string{"stdout mode Path('data/a.txt').stat().st_mode"}, program{files: src}},
		{"a tar of a generated input", "import tarfile\nwith tarfile.open('out', 'w') as tar:\n    tar.add('bazel-out/k8-fastbuild/bin/gen.txt')", []string{
			"file mtime tar.add('bazel-out/k8-fastbuild/bin/gen.txt')", "file owner tar.add('bazel-out/k8-fastbuild/bin/gen.txt')"}, program{files: src}},
		{"a tar of a source", "import tarfile\nwith tarfile.open('out', 'w') as tar:\n    tar.add('data/a.txt')", []string{
			"file mtime tar.add('data/a.txt')", "file owner tar.add('data/a.txt')", "file mode tar.add('data/a.txt')"}, program{files: src}},
	})
}

// TestTarFilters: a filter= of TarFile.add takes out what it sets to
// fixed values, and only that.
func TestTarFilters(t *testing.T) {
	add := func(filter string) string {
		return "import sys, tarfile\n" + filter + "\nwith tarfile.open('out', 'w') as tar:\n    tar.add('data', filter=f)"
	}
	all := []string{"file mtime tar.add('data', filter=f)", "file owner tar.add('data', filter=f)", "file mode tar.add('data', filter=f)"}
	owner := []string{"file owner tar.add('data', filter=f)"}
	runReachCases(t, []reachCase{
		{"a filter of times and modes", add("def f(ti):\n    ti.mtime = 0\n    ti.mode = 0o644\n    return ti"), owner, program{}},
		{"a filter of everything", add("def f(ti):\n    ti.mtime = 0\n    ti.mode = 0o644\n    ti.uid = ti.gid = 0\n    ti.uname = ti.gname = 'root'\n    return ti"), nil, program{}},
		{"a filter of owners in a branch not known", add("def f(ti):\n    ti.mtime = 0\n    ti.mode = 0o644\n    if sys.argv[1] == 'x':\n        ti.uid = ti.gid = 0\n        ti.uname = ti.gname = 'root'\n    return ti"), owner, program{args: []string{"?"}}},
		{"a filter of owners in both branches", add("def f(ti):\n    ti.mtime = 0\n    ti.mode = 0o644\n    if sys.argv[1] == 'x':\n        ti.uid = ti.gid = 0\n        ti.uname = ti.gname = 'root'\n    else:\n        ti.uid = ti.gid = 1\n        ti.uname = ti.gname = 'build'\n    return ti"), nil, program{args: []string{"?"}}},
		{"a filter of owners on a branch that was taken", add("def f(ti):\n    ti.mtime = 0\n    ti.mode = 0o644\n    if sys.argv[1] == '--root':\n        ti.uid = ti.gid = 0\n        ti.uname = ti.gname = 'root'\n    return ti"), nil, program{args: []string{"--root"}}},
		{"a filter that masks the mode it reads", add("def f(ti):\n    ti.mtime = 0\n    ti.uid = ti.gid = 0\n    ti.uname = ti.gname = ''\n    ti.mode = ti.mode & ~0o022\n    return ti"), []string{"file mode tar.add('data', filter=f)"}, program{}},
		{"a filter that leaves it all", add("def f(ti):\n    return ti"), all, program{}},
		{"a lambda replacing it all", add("f = lambda ti: ti.replace(mtime=0, mode=0o644, uid=0, gid=0, uname='', gname='')"), nil, program{}},
		{"a lambda replacing the time", add("f = lambda ti: ti.replace(mtime=0)"), []string{"file owner tar.add('data', filter=f)", "file mode tar.add('data', filter=f)"}, program{}},
		{"a filter of the library", add("f = tarfile.data_filter"), all, program{}},
		{"a named filter, which add cannot call", add("f = 'data'"), all, program{}},
		{"a filter that drops every member", add("def f(ti):\n    return None"), nil, program{}},
	})
}

// TestPools: a pool runs the program's functions; their results come in
// order unless the pool gives them as its workers finish, and its size
// reaches nothing.
func TestPools(t *testing.T) {
	sized := "import multiprocessing, os, time\ndef f(x):\n    return x\nn = len(os.sched_getaffinity(0))\nwith multiprocessing.Pool(n) as pool:\n"
	runReachCases(t, []reachCase{
		{"map of a pool sized by the processors", sized + "    print(pool.map(f, ['a', 'b']))", nil, program{}},
		{"imap of a pool", sized + "    for r in pool.imap(f, ['a', 'b']):\n        print(r)", nil, program{}},
		{"imap_unordered of a pool", sized + "    for r in pool.imap_unordered(f, ['a', 'b']):\n        print(r)", []string{"stdout parallel pool.imap_unordered(f, ['a', 'b'])"}, program{}},
		{"the size of a pool printed", sized + "    print(pool.map(f, ['a']), n)", []string{"stdout cpus os.sched_getaffinity(0)"}, program{}},
		{"map of a function that reads the clock", "import multiprocessing, time\ndef f(x):\n    return time.time()\nwith multiprocessing.Pool() as pool:\n    print(pool.map(f, [1, 2]))", []string{"stdout clock time.time()"}, program{}},
		{"starmap", "import multiprocessing, os\ndef f(a, b):\n    return b\nwith multiprocessing.Pool() as pool:\n    print(pool.starmap(f, [(1, os.getpid())]))", []string{"stdout pid os.getpid()"}, program{}},
		{"map_async got", "import multiprocessing, os\ndef f(x):\n    return os.getpid()\nwith multiprocessing.Pool() as pool:\n    print(pool.map_async(f, [1]).get())", []string{"stdout pid os.getpid()"}, program{}},
		{"apply_async got", "import multiprocessing, os\ndef f(x):\n    return x\nwith multiprocessing.Pool(os.cpu_count()) as pool:\n    print(pool.apply_async(f, (1,)).get())", nil, program{}},
		{"an executor's map", "import concurrent.futures, os\ndef f(x):\n    return x\nwith concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as ex:\n    print(list(ex.map(f, ['a', 'b'])))", nil, program{}},
		{"futures in the order submitted", "import concurrent.futures, time\ndef f(x):\n    return x\nwith concurrent.futures.ProcessPoolExecutor() as ex:\n    fs = [ex.submit(f, x) for x in ['a', 'b']]\n    for fut in fs:\n        print(fut.result())", nil, program{}},
		{"futures as they complete", "import concurrent.futures, time\ndef f(x):\n    return x\nwith concurrent.futures.ProcessPoolExecutor() as ex:\n    fs = [ex.submit(f, x) for x in ['a', 'b']]\n    for fut in concurrent.futures.as_completed(fs):\n        print(fut.result())", []string{"stdout parallel concurrent.futures.as_completed(fs)"}, program{}},
		{"a future of the clock", "import concurrent.futures, time\nwith concurrent.futures.ThreadPoolExecutor() as ex:\n    print(ex.submit(time.time).result())", []string{"stdout clock ex.submit(time.time)"}, program{}},
	})
}

// TestHashSeed: the order of sets of strings.
func TestHashSeed(t *testing.T) {
	set := `{"alpha", "bravo", "charlie"}`
	runReachCases(t, []reachCase{
		{"set joined", "print(' '.join(" + set + "))", []string{"stdout hashseed " + set}, program{}},
		{"set sorted", "print(' '.join(sorted(" + set + ")))", nil, program{}},
		{"set under PYTHONHASHSEED", "print(' '.join(" + set + "))", nil, program{env: []string{"PYTHONHASHSEED=0"}}},
		{"set printed", "s = " + set + "\nprint(s)", []string{"stdout hashseed " + set}, program{}},
		{"set listed", "print(list(set(['a', 'b'])))", []string{"stdout hashseed set(['a', 'b'])"}, program{}},
		{"set iterated", "for x in set(['a', 'b']):\n    print(x)", []string{"stdout hashseed set(['a', 'b'])"}, program{}},
		{"set counted", "print(len(" + set + "))", nil, program{}},
		{"set membership", "print('alpha' in " + set + ")", nil, program{}},
		{"set of ints", "print(list({3, 1, 2}))", nil, program{}},
		{"set of one string", "print(list({'a'}))", nil, program{}},
		{"set comprehension", "print([x for x in {n.lower() for n in ['A', 'B']}])", []string{"stdout hashseed {n.lower() for n in ['A', 'B']}"}, program{}},
		{"set built by add", "s = set()\ns.add('a')\ns.add('b')\nprint(','.join(s))", []string{"stdout hashseed set()"}, program{}},
		{"dict from a set", "d = {k: 1 for k in " + set + "}\nprint(d)", []string{"stdout hashseed " + set}, program{}},
		{"json of a set raises", "import json\njson.dump(" + set + ", open('out', 'w'))", nil, program{}},
		{"json of a set as a list", "import json\njson.dump(list(" + set + "), open('out', 'w'))", []string{"file hashseed " + set}, program{}},
		{"json of a sorted set", "import json\njson.dump(sorted(" + set + "), open('out', 'w'))", nil, program{}},
		{"pickle of a set", "import pickle\npickle.dump(" + set + ", open('out', 'wb'))", []string{"file hashseed " + set}, program{}},
		{"hash of a str", "print(hash('x'))", []string{"stdout hashseed hash('x')"}, program{}},
		{"hash of an int", "print(hash(1))", nil, program{}},
		{"set difference", "a = {'x', 'y', 'z'}\nprint(','.join(a - {'z'}))", []string{"stdout hashseed {'x', 'y', 'z'}"}, program{}},
	})
}

// TestArchives: what archivers and compressors record.
func TestArchives(t *testing.T) {
	reset := "def reset(ti):\n    ti.mtime = 0\n    ti.uid = ti.gid = 0\n    ti.uname = ti.gname = ''\n    ti.mode = 0o644\n    return ti\n"
	runReachCases(t, []reachCase{
		{"tar add", "import tarfile\nwith tarfile.open('out', 'w') as tar:\n    tar.add('data')", []string{
			"file mtime tar.add('data')", "file owner tar.add('data')", "file mode tar.add('data')"}, program{}},
		{"tar add with a filter", "import tarfile\n" + reset + "with tarfile.open('out', 'w') as tar:\n    tar.add('data', filter=reset)", nil, program{}},
		{"tar add to a temporary archive", "import tarfile\nwith tarfile.open('/tmp/x.tar', 'w') as tar:\n    tar.add('data')", nil, program{}},
		{"tar gz with a filter", "import tarfile\n" + reset + "with tarfile.open('out.tar.gz', 'w:gz') as tar:\n    tar.add('data', filter=reset)", []string{"file clock tarfile.open('out.tar.gz', 'w:gz')"}, program{}},
		{"tar read", "import tarfile\nwith tarfile.open('in.tar') as tar:\n    print(tar.getnames())", nil, program{}},
		{"tar info from a file", "import tarfile\ntar = tarfile.open('out', 'w')\nti = tar.gettarinfo('data/a')\ntar.addfile(ti, open('data/a', 'rb'))\ntar.close()", []string{
			"file mtime tar.gettarinfo('data/a')", "file owner tar.gettarinfo('data/a')", "file mode tar.gettarinfo('data/a')"}, program{}},
		{"tar info reset", "import tarfile\ntar = tarfile.open('out', 'w')\nti = tar.gettarinfo('data/a')\nti.mtime = 0\nti.uid = 0\nti.mode = 0o644\ntar.addfile(ti, open('data/a', 'rb'))\ntar.close()", nil, program{}},
		{"tar info made", "import io, tarfile\ntar = tarfile.open('out', 'w')\nti = tarfile.TarInfo('a')\ntar.addfile(ti, io.BytesIO(b'x'))\ntar.close()", nil, program{}},
		{"zip write", "import zipfile\nwith zipfile.ZipFile('out', 'w') as z:\n    z.write('data/a')", []string{"file mtime z.write('data/a')", "file mode z.write('data/a')"}, program{}},
		{"zip write of a file the program made", "import zipfile\nopen('/tmp/a', 'w').write('x')\nwith zipfile.ZipFile('out', 'w') as z:\n    z.write('/tmp/a')", []string{"file mtime z.write('/tmp/a')"}, program{}},
		{"zip of a ZipInfo of a source with its mode set", "import zipfile\nwith zipfile.ZipFile('out', 'w') as z:\n    i = zipfile.ZipInfo.from_file('data/a')\n    i.date_time = (1980, 1, 1, 0, 0, 0)\n    i.external_attr = 0o644 << 16\n    z.writestr(i, open('data/a').read())", nil, program{}},
		{"zip of a ZipInfo of a source", "import zipfile\nwith zipfile.ZipFile('out', 'w') as z:\n    i = zipfile.ZipInfo.from_file('data/a')\n    i.date_time = (1980, 1, 1, 0, 0, 0)\n    z.writestr(i, open('data/a').read())", []string{"file mode zipfile.ZipInfo.from_file('data/a')"}, program{}},
		{"zip writestr by name", "import zipfile\nwith zipfile.ZipFile('out', 'w') as z:\n    z.writestr('a.txt', 'hello')", []string{"file clock z.writestr('a.txt', 'hello')"}, program{}},
		{"zip writestr of a ZipInfo", "import zipfile\nwith zipfile.ZipFile('out', 'w') as z:\n    z.writestr(zipfile.ZipInfo('a.txt', (1980, 1, 1, 0, 0, 0)), 'hello')", nil, program{}},
		{"zip into memory then out", "import io, zipfile\nbuf = io.BytesIO()\nwith zipfile.ZipFile(buf, 'w') as z:\n    z.writestr('a', 'x')\nopen('out', 'wb').write(buf.getvalue())", []string{"file clock z.writestr('a', 'x')"}, program{}},
		{"gzip open", "import gzip\nwith gzip.open('out', 'wb') as f:\n    f.write(b'x')", []string{"file clock gzip.open('out', 'wb')"}, program{}},
		{"gzip open to read", "import gzip\nwith gzip.open('in.gz', 'rb') as f:\n    print(f.read())", nil, program{}},
		{"GzipFile with mtime", "import gzip\nwith gzip.GzipFile('out', 'wb', mtime=0) as f:\n    f.write(b'x')", nil, program{}},
		{"GzipFile over a file", "import gzip\nwith open('out', 'wb') as raw:\n    with gzip.GzipFile(fileobj=raw, mode='wb') as f:\n        f.write(b'x')", []string{"file clock gzip.GzipFile(fileobj=raw, mode='wb')"}, program{}},
		{"gzip compress", "import gzip\nopen('out', 'wb').write(gzip.compress(b'x'))", []string{"file clock gzip.compress(b'x')"}, program{}},
		{"gzip compress with mtime", "import gzip\nopen('out', 'wb').write(gzip.compress(b'x', mtime=0))", nil, program{}},
		{"make_archive gztar", "import shutil\nshutil.make_archive('out', 'gztar', 'data')", []string{
			"file mtime shutil.make_archive('out', 'gztar', 'data')", "file mode shutil.make_archive('out', 'gztar', 'data')", "file owner shutil.make_archive('out', 'gztar', 'data')", "file clock shutil.make_archive('out', 'gztar', 'data')"}, program{}},
		{"make_archive adds the extension", "import shutil\nshutil.make_archive('dist/pkg', 'gztar', 'data', owner='root', group='root')", []string{
			"file mtime shutil.make_archive('dist/pkg', 'gztar', 'data', owner='root', group='root')",
			"file mode shutil.make_archive('dist/pkg', 'gztar', 'data', owner='root', group='root')",
			"file clock shutil.make_archive('dist/pkg', 'gztar', 'data', owner='root', group='root')"}, program{}},
		{"make_archive elsewhere", "import shutil\nshutil.make_archive('/tmp/pkg', 'gztar', 'data')", nil, program{}},
		{"make_archive zip", "import shutil\nshutil.make_archive('out', 'zip', 'data')", []string{
			"file mtime shutil.make_archive('out', 'zip', 'data')", "file mode shutil.make_archive('out', 'zip', 'data')", "file order shutil.make_archive('out', 'zip', 'data')"}, program{}},
		{"make_archive tar with owners", "import shutil\nshutil.make_archive('out', 'tar', 'data', owner='root', group='root')", []string{
			"file mtime shutil.make_archive('out', 'tar', 'data', owner='root', group='root')",
			"file mode shutil.make_archive('out', 'tar', 'data', owner='root', group='root')"}, program{}},
		{"tar of files whose times were set", "import os, tarfile\nos.utime('data/a', (0, 0))\nwith tarfile.open('out', 'w') as tar:\n    tar.add('data/a')", []string{
			"file owner tar.add('data/a')", "file mode tar.add('data/a')"}, program{}},
		{"py_compile", "import py_compile\npy_compile.compile('tool.py', cfile='out')", []string{"file mtime py_compile.compile('tool.py', cfile='out')"}, program{}},
		{"py_compile under SOURCE_DATE_EPOCH", "import py_compile\npy_compile.compile('tool.py', cfile='out')", nil, program{env: []string{"SOURCE_DATE_EPOCH=0"}}},
		{"py_compile checked hash", "import py_compile\npy_compile.compile('tool.py', 'out', invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)", nil, program{}},
		{"py_compile timestamp asked", "import py_compile\npy_compile.compile('tool.py', 'out', invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)", []string{
			"file mtime py_compile.compile('tool.py', 'out', invalidation_mode=py_compile.PycInvalidatio…"}, program{}},
		{"py_compile to a temporary file", "import py_compile\npy_compile.compile('tool.py', cfile='/tmp/x.pyc')", nil, program{}},
		{"compileall of an output directory", "import compileall\ncompileall.compile_dir('outdir', quiet=1)", []string{"file mtime compileall.compile_dir('outdir', quiet=1)"}, program{}},
	})
}

// TestSinks: where a value goes, and what counts.
func TestSinks(t *testing.T) {
	runReachCases(t, []reachCase{
		{"sys.stdout.write", "import os, sys\nsys.stdout.write(str(os.getpid()))", []string{"stdout pid os.getpid()"}, program{}},
		{"stdout imported by name", "import os\nfrom sys import stdout\nstdout.write(str(os.getpid()))", []string{"stdout pid os.getpid()"}, program{}},
		{"stderr imported by name", "import os\nfrom sys import stderr\nprint(os.getpid(), file=stderr)", nil, program{}},
		{"argv imported by name", "from sys import argv\nopen(argv[1], 'w').write(argv[2])", nil, program{args: []string{"out", "x"}}},
		{"sys.stdout.buffer.write", "import os, sys\nsys.stdout.buffer.write(os.urandom(4))", []string{"stdout urandom os.urandom(4)"}, program{}},
		{"print to a file", "import os\nprint(os.getpid(), file=open('out', 'w'))", []string{"file pid os.getpid()"}, program{}},
		{"print to devnull", "import os\nprint(os.getpid(), file=open(os.devnull, 'w'))", nil, program{}},
		{"writelines in append mode", "import os\nf = open('out', 'a')\nf.writelines([str(os.getpid()), '\\n'])\nf.close()", []string{"file pid os.getpid()"}, program{}},
		{"file opened to read", "import os\nf = open('out')\nf.write(str(os.getpid()))", nil, program{}},
		{"pathlib write_text", "import os\nfrom pathlib import Path\nPath('out').write_text(str(os.getpid()))", []string{"file pid os.getpid()"}, program{}},
		{"pathlib write_text elsewhere", "import os\nfrom pathlib import Path\nPath('/tmp/log').write_text(str(os.getpid()))", nil, program{}},
		{"pathlib joined", "import os\nfrom pathlib import Path\n(Path('outdir') / 'a.txt').write_text(str(os.getpid()))", []string{"file pid os.getpid()"}, program{}},
		{"json dump", "import json, time\nwith open('out', 'w') as f:\n    json.dump({'built': time.time()}, f)", []string{"file clock time.time()"}, program{}},
		{"json dumps printed", "import json, time\nprint(json.dumps({'built': time.time()}))", []string{"stdout clock time.time()"}, program{}},
		{"json of fixed data", "import json\nwith open('out', 'w') as f:\n    json.dump({'a': 1}, f, indent=2)", nil, program{}},
		{"copy of a file the program wrote", "import shutil, time\nopen('/tmp/t', 'w').write(str(time.time()))\nshutil.copyfile('/tmp/t', 'out')", []string{"file clock time.time()"}, program{}},
		{"rename into the output", "import os, time\nopen('out.tmp', 'w').write(str(time.time()))\nos.replace('out.tmp', 'out')", []string{"file clock time.time()"}, program{}},
		{"read back and printed", "import time\nopen('/tmp/t', 'w').write(str(time.time()))\nprint(open('/tmp/t').read())", []string{"stdout clock time.time()"}, program{}},
		{"file named by an unknown argument", "import sys, time\nopen(sys.argv[1], 'w').write(str(time.time()))", []string{"file clock time.time()"}, program{args: []string{"?"}}},
		{"file named by a known argument that is not an output", "import sys, time\nopen(sys.argv[1], 'w').write(str(time.time()))", nil, program{args: []string{"log.txt"}}},
		{"file named by a known argument that is an output", "import sys, time\nopen(sys.argv[1], 'w').write(str(time.time()))", []string{"file clock time.time()"}, program{args: []string{"out"}}},
		{"one unknown argument is one file", "import shutil, sys, time\nopen(sys.argv[1], 'w').write(str(time.time()))\nshutil.copy(sys.argv[1], '/tmp/copy')\nprint(open('/tmp/copy').read())", []string{"stdout clock time.time()", "file clock time.time()"}, program{args: []string{"?"}}},
		{"file in an output directory", "import os, sys, time\nopen(os.path.join(sys.argv[1], 'a.txt'), 'w').write(str(time.time()))", []string{"file clock time.time()"}, program{args: []string{"outdir"}}},
		{"argparse output", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--out')\nargs = p.parse_args()\nwith open(args.out, 'w') as f:\n    f.write(str(time.time()))", []string{"file clock time.time()"}, program{args: []string{"--out", "?"}}},
		{"argparse value printed", "import argparse\np = argparse.ArgumentParser()\np.add_argument('name')\nprint(p.parse_args().name)", nil, program{args: []string{"x"}}},
		{"output file or stdout", "import sys, time\nout = open(sys.argv[1], 'w') if sys.argv[1] != '-' else sys.stdout\nout.write(str(time.time()))", []string{"stdout clock time.time()", "file clock time.time()"}, program{args: []string{"?"}}},
		{"stdout rebound to a file", "import sys, time\nsys.stdout = open('out', 'w')\nprint(time.time())", []string{"file clock time.time()"}, program{}},
		{"stdout redirected to a file", "import contextlib, os\nwith open('out', 'w') as f, contextlib.redirect_stdout(f):\n    print(os.getpid())", []string{"file pid os.getpid()"}, program{}},
		{"stdout redirected then restored", "import contextlib, os\nwith contextlib.redirect_stdout(open('/tmp/log', 'w')):\n    print('working')\nprint(os.getpid())", []string{"stdout pid os.getpid()"}, program{}},
		{"stdout redirected to a log", "import contextlib, os\nwith contextlib.redirect_stdout(open('/tmp/log', 'w')):\n    print(os.getpid())", nil, program{}},
		{"StringIO then printed", "import io, time\nbuf = io.StringIO()\nbuf.write(str(time.time()))\nprint(buf.getvalue())", []string{"stdout clock time.time()"}, program{}},
		{"copytree of a directory the program wrote", "import os, shutil, tempfile, time\nd = tempfile.mkdtemp()\nopen(os.path.join(d, 'stamp'), 'w').write(str(time.time()))\nshutil.copytree(d, 'outdir')", []string{"file clock time.time()"}, program{}},
		{"move into the output", "import os, shutil\nopen('/tmp/p', 'w').write(str(os.getpid()))\nshutil.move('/tmp/p', 'out')", []string{"file pid os.getpid()"}, program{}},
		{"exclusive creation", "import os\nwith open('out', 'x') as f:\n    f.write(str(os.getpid()))", []string{"file pid os.getpid()"}, program{}},
		{"pathlib write_bytes", "import os\nfrom pathlib import Path\nPath('out').write_bytes(os.urandom(4))", []string{"file urandom os.urandom(4)"}, program{}},
		{"named temporary file", "import os, tempfile\nwith tempfile.NamedTemporaryFile('w') as f:\n    f.write(str(os.getpid()))", nil, program{}},
		{"StringIO dropped", "import io, time\nbuf = io.StringIO()\nbuf.write(str(time.time()))\nprint('ok')", nil, program{}},
	})
}

// TestSubprocess: commands handed to the readers of other languages.
func TestSubprocess(t *testing.T) {
	runReachCases(t, []reachCase{
		{"run prints", "import subprocess\nsubprocess.run(['date'])", []string{"stdout clock date"}, program{}},
		{"run to devnull", "import subprocess\nsubprocess.run(['date'], stdout=subprocess.DEVNULL)", nil, program{}},
		{"run captured and dropped", "import subprocess\nsubprocess.run(['date'], capture_output=True)", nil, program{}},
		{"run captured and printed", "import subprocess\nprint(subprocess.run(['date'], capture_output=True, text=True).stdout)", []string{"stdout clock date"}, program{}},
		{"run piped and printed", "import subprocess\np = subprocess.run(['date'], stdout=subprocess.PIPE)\nprint(p.stdout.decode())", []string{"stdout clock date"}, program{}},
		{"check_output dropped", "import subprocess\nsubprocess.check_output(['date'])", nil, program{}},
		{"check_output printed", "import subprocess\nprint(subprocess.check_output(['date']).decode().strip())", []string{"stdout clock date"}, program{}},
		{"run into a file", "import subprocess\nwith open('out', 'w') as f:\n    subprocess.run(['date'], stdout=f)", []string{"file clock date"}, program{}},
		{"system prints", "import os\nos.system('date')", []string{"stdout clock date"}, program{}},
		{"system writes a file", "import os\nos.system('date > out')", []string{"file clock date"}, program{}},
		{"shell string", "import subprocess\nsubprocess.call('date -u', shell=True)", []string{"stdout clock date"}, program{}},
		{"popen read", "import os\nprint(os.popen('date').read())", []string{"stdout clock date"}, program{}},
		{"popen dropped", "import os\nos.popen('date').read()", nil, program{}},
		{"Popen communicate", "import subprocess\np = subprocess.Popen(['date'], stdout=subprocess.PIPE)\nout, _ = p.communicate()\nprint(out)", []string{"stdout clock date"}, program{}},
		{"check_call prints", "import subprocess\nsubprocess.check_call(['date', '+%s'])", []string{"stdout clock date"}, program{}},
		{"command of known words", "import subprocess\nsubprocess.run(['echo', 'hello'])", nil, program{}},
	})
}

// TestFlow: the language's constructs carry values.
func TestFlow(t *testing.T) {
	runReachCases(t, []reachCase{
		{"function returns the time", "import time\ndef stamp():\n    return time.time()\nprint(stamp())", []string{"stdout clock time.time()"}, program{}},
		{"function returns its argument", "def same(x):\n    return x\nprint(same(1))", nil, program{}},
		{"function writes its argument", "import time\ndef emit(f, v):\n    f.write(str(v))\nemit(open('out', 'w'), time.time())", []string{"file clock time.time()"}, program{}},
		{"function never called", "import time\ndef stamp():\n    print(time.time())", nil, program{}},
		{"default argument", "import time\ndef stamp(t=time.time()):\n    return t\nprint(stamp())", []string{"stdout clock time.time()"}, program{}},
		{"keyword argument", "import time\ndef f(a, b=0):\n    return b\nprint(f(1, b=time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"star arguments", "import time\ndef f(*args, **kw):\n    return kw['t']\nprint(f(1, 2, t=time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"recursion ends", "import time\ndef f(n):\n    if n == 0:\n        return time.time()\n    return f(n - 1)\nprint(f(3))", []string{"stdout clock time.time()"}, program{}},
		{"lambda", "import time\nnow = lambda: time.time()\nprint(now())", []string{"stdout clock time.time()"}, program{}},
		{"closure", "import time\ndef outer():\n    t = time.time()\n    def inner():\n        return t\n    return inner\nprint(outer()())", []string{"stdout clock time.time()"}, program{}},
		{"global", "import time\nT = 0\ndef set_t():\n    global T\n    T = time.time()\nset_t()\nprint(T)", []string{"stdout clock time.time()"}, program{}},
		{"class attribute", "import time\nclass G:\n    def __init__(self):\n        self.t = time.time()\nprint(G().t)", []string{"stdout clock time.time()"}, program{}},
		{"class attribute fixed", "import time\nclass G:\n    def __init__(self):\n        self.t = time.time()\n        self.n = 1\nprint(G().n)", nil, program{}},
		{"method", "import os\nclass W:\n    def pid(self):\n        return os.getpid()\nprint(W().pid())", []string{"stdout pid os.getpid()"}, program{}},
		{"__str__", "import os\nclass P:\n    def __str__(self):\n        return str(os.getpid())\nprint(P())", []string{"stdout pid os.getpid()"}, program{}},
		{"super", "import os\nclass A:\n    def __init__(self):\n        self.p = os.getpid()\nclass B(A):\n    def __init__(self):\n        super().__init__()\nprint(B().p)", []string{"stdout pid os.getpid()"}, program{}},
		{"property", "import os\nclass A:\n    @property\n    def p(self):\n        return os.getpid()\nprint(A().p)", []string{"stdout pid os.getpid()"}, program{}},
		{"library decorator", "import functools, os\n@functools.lru_cache\ndef p():\n    return os.getpid()\nprint(p())", []string{"stdout pid os.getpid()"}, program{}},
		{"branch", "import sys, time\nif sys.argv[1] == 'x':\n    x = time.time()\nelse:\n    x = 0\nprint(x)", []string{"stdout clock time.time()"}, program{args: []string{"?"}}},
		{"dead branch", "import time\nif False:\n    print(time.time())", nil, program{}},
		{"main guard", "import time\ndef main():\n    print(time.time())\nif __name__ == '__main__':\n    main()", []string{"stdout clock time.time()"}, program{}},
		{"return in a branch", "import sys, time\ndef f():\n    if sys.argv[1] == 'x':\n        return 0\n    return time.time()\nprint(f())", []string{"stdout clock time.time()"}, program{args: []string{"?"}}},
		{"loop carries a value", "import time\nacc = ''\nfor i in range(3):\n    print(acc)\n    acc += str(time.time())", []string{"stdout clock time.time()"}, program{}},
		{"while loop", "import time\nn = 0\nwhile n < 3:\n    n += 1\n    last = time.time()\nprint(last)", []string{"stdout clock time.time()"}, program{}},
		{"while True left by a break", "import time\nwhile True:\n    t = time.time()\n    break\nprint(t)", []string{"stdout clock time.time()"}, program{}},
		{"while True never left", "import time\nwhile True:\n    pass\nprint(time.time())", nil, program{}},
		{"break", "import time\nfor i in range(10):\n    t = time.time()\n    break\nprint(t)", []string{"stdout clock time.time()"}, program{}},
		{"comprehension", "import time\nprint([time.time() for _ in range(2)])", []string{"stdout clock time.time()"}, program{}},
		{"generator", "import time\ndef gen():\n    yield time.time()\nfor t in gen():\n    print(t)", []string{"stdout clock time.time()"}, program{}},
		{"f-string", "import time\nprint(f'at {time.time():.0f}')", []string{"stdout clock time.time()"}, program{}},
		{"f-string fixed", "print(f'{6 * 7} {\"x\"!r}')", nil, program{}},
		{"percent format", "import time\nprint('at %s' % time.time())", []string{"stdout clock time.time()"}, program{}},
		{"percent format of a tuple", "import time\nprint('%s %d' % ('a', time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"str.format", "import time\nprint('at {}'.format(time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"str.format by name", "import time\nprint('at {t}'.format(t=time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"repr", "import time\nprint(repr(time.time()))", []string{"stdout clock time.time()"}, program{}},
		{"join", "import os\nprint('-'.join(['a', str(os.getpid())]))", []string{"stdout pid os.getpid()"}, program{}},
		{"tuple unpacking fixed", "import time\na, b = 1, time.time()\nprint(a)", nil, program{}},
		{"tuple unpacking varying", "import time\na, b = 1, time.time()\nprint(b)", []string{"stdout clock time.time()"}, program{}},
		{"starred unpacking", "import time\nfirst, *rest = [1, 2, time.time()]\nprint(rest)", []string{"stdout clock time.time()"}, program{}},
		{"augmented", "import time\ns = 'at '\ns += str(time.time())\nprint(s)", []string{"stdout clock time.time()"}, program{}},
		{"annotated", "import time\nt: float = time.time()\nprint(t)", []string{"stdout clock time.time()"}, program{}},
		{"walrus", "import time\nif (t := time.time()) > 0:\n    print(t)", []string{"stdout clock time.time()"}, program{}},
		{"dict value", "import time\nd = {'t': time.time(), 'n': 1}\nprint(d['t'])", []string{"stdout clock time.time()"}, program{}},
		{"dict other value", "import time\nd = {'t': time.time(), 'n': 1}\nprint(d['n'])", nil, program{}},
		{"list item", "import time\nl = [1, time.time()]\nprint(l[0])", nil, program{}},
		{"list appended", "import time\nl = []\nl.append(time.time())\nprint(l)", []string{"stdout clock time.time()"}, program{}},
		{"list shared", "import time\na = []\nb = a\nb.append(time.time())\nprint(a)", []string{"stdout clock time.time()"}, program{}},
		{"try", "import time\ntry:\n    t = time.time()\nexcept Exception:\n    t = 0\nprint(t)", []string{"stdout clock time.time()"}, program{}},
		{"except handler", "import time\ntry:\n    open('missing')\nexcept OSError:\n    print(time.time())", []string{"stdout clock time.time()"}, program{}},
		{"with of the program's class", "import os\nclass C:\n    def __enter__(self):\n        return os.getpid()\n    def __exit__(self, *a):\n        pass\nwith C() as p:\n    print(p)", []string{"stdout pid os.getpid()"}, program{}},
		{"match", "import sys, time\nmatch sys.argv[1]:\n    case 'now':\n        print(time.time())\n    case _:\n        print(0)", []string{"stdout clock time.time()"}, program{args: []string{"?"}}},
		{"exec of a known string", "exec('import os\\nprint(os.getpid())')", []string{"stdout pid os.getpid()"}, program{}},
		{"eval of a known string", "import os\nprint(eval('os.getpid()'))", []string{"stdout pid os.getpid()"}, program{}},
		{"a list compared with a list", "import sys, time\nprint(time.time() if sys.argv[1:2] == ['--now'] else 0)", nil, program{args: []string{"--later"}}},
		{"a list compared with an equal list", "import sys, time\nprint(time.time() if sys.argv[1:2] == ['--now'] else 0)", []string{"stdout clock time.time()"}, program{args: []string{"--now"}}},
		{"a list compared with a longer one", "import sys, time\nprint(time.time() if sys.argv[1:] != ['--now'] else 0)", []string{"stdout clock time.time()"}, program{args: []string{"--now", "x"}}},
		{"the number of arguments compared", "import sys, uuid\nif len(sys.argv) > 1:\n    print(uuid.uuid5(uuid.NAMESPACE_DNS, sys.argv[1]))\nelse:\n    print(uuid.uuid4())", nil, program{args: []string{"example.com"}}},
		{"the number of arguments compared, none given", "import sys, uuid\nif len(sys.argv) > 1:\n    print(uuid.uuid5(uuid.NAMESPACE_DNS, sys.argv[1]))\nelse:\n    print(uuid.uuid4())", []string{"stdout random uuid.uuid4()"}, program{}},
		{"a chain of comparisons", "import sys, time\nif 0 <= len(sys.argv) - 1 < 2:\n    print(0)\nelse:\n    print(time.time())", nil, program{args: []string{"x"}}},
		{"sys.argv known", "import sys\nprint(sys.argv[1], sys.argv[0])", nil, program{args: []string{"x"}, file: "gen.py"}},
		{"bytes decoded", "import os\nprint(os.urandom(2).decode('latin-1'))", []string{"stdout urandom os.urandom(2)"}, program{}},
		{"here-document read from stdin", "", nil, program{}},
	})
}

// TestArgparse: a known command line read through argparse decides what
// the program does with it.
func TestArgparse(t *testing.T) {
	flag := "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('-t', '--time', action='store_true')\np.add_argument('-q', '--quiet', action='store_true')\na = p.parse_args()\nprint(time.time() if a.time else 0)"
	seed := "import argparse, random\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\np.add_argument('words', nargs='+')\na = p.parse_args()\nrng = random.Random(a.seed) if a.seed is not None else random\nwords = list(a.words)\nrng.shuffle(words)\nprint(' '.join(words))"
	outs := "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('out')\np.add_argument('files', nargs='*')\na = p.parse_args()\nopen(a.out, 'w').write(str(time.time()) + ' '.join(a.files))"
	clock := []string{"stdout clock time.time()"}
	runReachCases(t, []reachCase{
		{"a flag not given", flag, nil, program{}},
		{"a flag given", flag, clock, program{args: []string{"--time"}}},
		{"a flag given by a prefix of its name", flag, clock, program{args: []string{"--ti"}}},
		{"another flag given", flag, nil, program{args: []string{"-q"}}},
		{"a flag bundled after another", flag, clock, program{args: []string{"-qt"}}},
		{"a flag of an argv not known", flag, clock, program{args: []string{"?"}}},
		{"an option argparse refuses", flag, clock, program{args: []string{"--bogus"}}},
		{"a flag after --", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--time', action='store_true')\np.add_argument('rest', nargs='*')\na = p.parse_args()\nprint(time.time() if a.time else 0)", nil, program{args: []string{"--", "--time"}}},
		{"a seed given", seed, nil, program{args: []string{"--seed", "42", "a", "b"}}},
		{"a seed given with =", seed, nil, program{args: []string{"--seed=42", "a", "b"}}},
		{"a seed not given", seed, []string{"stdout random rng.shuffle(words)"}, program{args: []string{"a", "b"}}},
		{"the output a positional names", outs, []string{"file clock time.time()"}, program{args: []string{"out", "x", "y"}}},
		{"a scratch file a positional names", outs, nil, program{args: []string{"/tmp/x"}}},
		{"a default used", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--date')\na = p.parse_args()\nprint(a.date or time.time())", clock, program{}},
		{"a default replaced", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--date')\na = p.parse_args()\nprint(a.date or time.time())", nil, program{args: []string{"--date", "2020-01-01"}}},
		{"a short option with its value attached", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('-d', '--date')\na = p.parse_args()\nprint(a.date or time.time())", nil, program{args: []string{"-d2020"}}},
		{"a negative number as a value", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--offset', type=int)\na = p.parse_args()\nprint(time.time() if a.offset is None else a.offset)", nil, program{args: []string{"--offset", "-5"}}},
		{"set_defaults", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--time', action='store_true')\np.set_defaults(time=True)\na = p.parse_args()\nprint(time.time() if a.time else 0)", clock, program{}},
		{"a count", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('-v', action='count')\na = p.parse_args()\nprint(time.time() if a.v == 2 else 0)", clock, program{args: []string{"-v", "-v"}}},
		{"store_false", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--no-time', dest='time', action='store_false')\na = p.parse_args()\nprint(time.time() if a.time else 0)", nil, program{args: []string{"--no-time"}}},
		{"an option of a group", "import argparse, time\np = argparse.ArgumentParser()\ng = p.add_mutually_exclusive_group()\ng.add_argument('--time', action='store_true')\na = p.parse_args()\nprint(time.time() if a.time else 0)", clock, program{args: []string{"--time"}}},
		{"a boolean option turned off", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--time', action=argparse.BooleanOptionalAction, default=True)\na = p.parse_args()\nprint(time.time() if a.time else 0)", nil, program{args: []string{"--no-time"}}},
		{"an appended option", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--tag', action='append', default=[])\na = p.parse_args()\nprint(time.time() if 'now' in a.tag else 0)", clock, program{args: []string{"--tag", "x", "--tag", "now"}}},
		{"an explicit list", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--time', action='store_true')\na = p.parse_args(['--time'])\nprint(time.time() if a.time else 0)", clock, program{}},
		{"parse_known_args keeps what it does not know", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--time', action='store_true')\na, rest = p.parse_known_args()\nprint(time.time() if a.time else rest)", nil, program{args: []string{"--bogus"}}},
		{"subparsers are not followed", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--time', action='store_true')\np.add_subparsers()\na = p.parse_args()\nprint(time.time() if a.time else 0)", clock, program{}},
		{"an attribute set after parsing", "import argparse, time\np = argparse.ArgumentParser()\np.add_argument('--when')\na = p.parse_args()\na.when = time.time()\nprint(a.when)", clock, program{}},
	})
}

// TestImports: modules of the workspace are read and followed.
func TestImports(t *testing.T) {
	lib := codetest.Inputs{
		"tools/stamp.py":        "import time\ndef stamp():\n    return time.time()\ndef fixed():\n    return 'v1'\n",
		"tools/pkg/__init__.py": "from .helpers import pid\n",
		"tools/pkg/helpers.py":  "import os\ndef pid():\n    return os.getpid()\n",
		"tools/noisy.py":        "import os\nprint(os.getpid())\nif __name__ == '__main__':\n    print(os.getppid())\n",
	}
	in := func(files codetest.Inputs) program { return program{files: files, file: "tools/gen.py"} }
	runReachCases(t, []reachCase{
		{"from a module beside the program", "from stamp import stamp\nprint(stamp())", []string{"stdout clock time.time()"}, in(lib)},
		{"a fixed function of it", "from stamp import fixed\nprint(fixed())", nil, in(lib)},
		{"import as", "import stamp as s\nprint(s.stamp())", []string{"stdout clock time.time()"}, in(lib)},
		{"by its path from the root", "import tools.stamp\nprint(tools.stamp.stamp())", []string{"stdout clock time.time()"}, in(lib)},
		{"a package", "from pkg import pid\nprint(pid())", []string{"stdout pid os.getpid()"}, in(lib)},
		{"a package's module", "import pkg.helpers\nprint(pkg.helpers.pid())", []string{"stdout pid os.getpid()"}, in(lib)},
		{"a module that prints when imported", "import noisy", []string{"stdout pid os.getpid()"}, in(lib)},
		{"a module run as main", "import runpy\nrunpy.run_module('noisy', run_name='__main__')", []string{"stdout pid os.getpid()", "stdout pid os.getppid()"}, in(lib)},
	})

	out, _ := read(t, "import yaml\nprint(yaml.safe_load('a: 1'))", program{files: lib, file: "tools/gen.py"})
	if len(out.Unread) != 1 || !strings.Contains(out.Unread[0], "tools/gen.py:1: python: import yaml: not in the standard library") {
		t.Errorf("an import that cannot be read: unread %q", out.Unread)
	}
	out, _ = read(t, "try:\n    import json\nexcept ImportError:\n    import simplejson as json\nprint(json.dumps([1]))", program{file: "tools/gen.py"})
	if len(out.Unread) != 0 {
		t.Errorf("a fallback import: unread %q", out.Unread)
	}
	out, _ = read(t, "from stamp import stamp\nprint(stamp())", program{file: "tools/gen.py"})
	if len(out.Unread) != 1 || !strings.Contains(out.Unread[0], "import stamp") {
		t.Errorf("an import without a workspace: unread %q", out.Unread)
	}
}

// TestSites: a reach names the file and line where the value is
// produced, and the expression as written.
func TestSites(t *testing.T) {
	files := codetest.Inputs{"tools/lib.py": "import os\n\ndef pid():\n    return os.getpid()\n"}
	tests := []struct {
		name string
		prog code.Program
		want effect.Reach
	}{
		{"a file", code.Program{Text: "import time\n\nprint(time.time())\n", File: "tools/gen.py"},
			effect.Reach{Value: effect.Clock, Text: "time.time()", Site: effect.Site{File: "tools/gen.py", Line: 3}}},
		{"inline code at a line of a script", code.Program{Text: "import time\nprint(time.time())", Site: effect.Site{File: "gen.sh", Line: 4}},
			effect.Reach{Value: effect.Clock, Text: "time.time()", Site: effect.Site{File: "gen.sh", Line: 5}}},
		{"inline code on the command line", code.Program{Text: "import time\nprint(time.time())"},
			effect.Reach{Value: effect.Clock, Text: "time.time()"}},
		{"an imported module", code.Program{Text: "from lib import pid\nprint(pid())", File: "tools/gen.py"},
			effect.Reach{Value: effect.PID, Text: "os.getpid()", Site: effect.Site{File: "tools/lib.py", Line: 4}}},
		{"a long expression cut short", code.Program{Text: "import time\nprint(time.strftime('%Y-%m-%dT%H:%M:%S ' + 'padding padding padding padding padding padding padding'))"},
			effect.Reach{Value: effect.Clock, Text: "time.strftime('%Y-%m-%dT%H:%M:%S ' + 'padding padding padding padding padding pa…"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.prog.Language = code.Python
			out := Reader{}.Read(tc.prog, code.Env{Library: spec.Builtin(), Files: files})
			if len(out.Stdout) != 1 {
				t.Fatalf("stdout %v, want one reach", out.Stdout)
			}
			got := out.Stdout[0]
			got.Because = ""
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestStdinProgram: a here-document given to python3 is its program.
// TestModuleByName: python3 -m NAME runs the module of the workspace, as
// __main__, after its package, with the arguments given.
func TestModuleByName(t *testing.T) {
	ws := codetest.Inputs{
		"tools/__init__.py": "",
		"tools/gen.py":      "import time\nprint(time.time())\n",
		"tools/fixed.py":    "print('v1')\n",
		"tools/rel.py":      "from .stamp import label\nprint(label())\n",
		"tools/stamp.py":    "import time\ndef label():\n    return 'at %d' % time.time()\n",
		"tools/args.py":     "import sys, time\nif sys.argv[1] == 'now':\n    print(time.time())\n",
		"tools/main.py":     "import os\ndef main():\n    print(os.getpid())\nif __name__ == '__main__':\n    main()\n",
		"pkg/__init__.py":   "import os\nprint(os.getpid())\n",
		"pkg/__main__.py":   "print('v1')\n",
		"bazel-out/k8-fastbuild/bin/tool.runfiles/ws/lib/deep.py": "import uuid\nprint(uuid.uuid4())\n",
	}
	tests := []struct {
		name, module string
		args         []string
		files        code.Files
		want         []string
		unread       string
	}{
		{"a module that prints the time", "tools.gen", nil, ws, []string{"stdout clock time.time() tools/gen.py:2"}, ""},
		{"a fixed module", "tools.fixed", nil, ws, nil, ""},
		{"a module importing its package's module", "tools.rel", nil, ws, []string{"stdout clock time.time() tools/stamp.py:3"}, ""},
		{"a module given its arguments", "tools.args", []string{"later"}, ws, nil, ""},
		{"a module given the argument that prints", "tools.args", []string{"now"}, ws, []string{"stdout clock time.time() tools/args.py:3"}, ""},
		{"a module run as __main__", "tools.main", nil, ws, []string{"stdout pid os.getpid() tools/main.py:3"}, ""},
		{"a package's __main__ after its __init__", "pkg", nil, ws, []string{"stdout pid os.getpid() pkg/__init__.py:2"}, ""},
		{"a module among the runfiles", "lib.deep", nil, ws, []string{"stdout random uuid.uuid4() bazel-out/k8-fastbuild/bin/tool.runfiles/ws/lib/deep.py:2"}, ""},
		{"a module of the standard library", "json.tool", nil, ws, nil, "-m json.tool: a module of the standard library run as a program, which is not read"},
		{"a module not found", "nowhere.gen", nil, ws, nil, "-m nowhere.gen: not in the standard library and not found"},
		{"a module without the workspace", "tools.gen", nil, nil, nil, "-m tools.gen: the workspace is not known"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := code.Program{Language: code.Python, Module: tc.module, Site: effect.Site{File: "BUILD", Line: 3}, Outputs: []string{"out"}}
			for _, a := range tc.args {
				p.Args = append(p.Args, code.Arg{Text: a, Known: true})
			}
			out := Reader{}.Read(p, code.Env{Library: spec.Builtin(), Files: tc.files})
			var got []string
			for _, x := range out.Stdout {
				got = append(got, "stdout "+x.Value.String()+" "+x.Text+" "+x.Site.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q (unread %q)", got, tc.want, out.Unread)
			}
			switch {
			case tc.unread == "" && len(out.Unread) > 0:
				t.Errorf("unread %q", out.Unread)
			case tc.unread != "" && (len(out.Unread) != 1 || !strings.Contains(out.Unread[0], tc.unread)):
				t.Errorf("unread %q, want one saying %q", out.Unread, tc.unread)
			}
		})
	}
}

func TestStdinProgram(t *testing.T) {
	out := Reader{}.Read(code.Program{Language: code.Python, Stdin: "import os\nprint(os.getpid())\n"}, code.Env{Library: spec.Builtin()})
	if got := found(out); !slices.Equal(got, []string{"stdout pid os.getpid()"}) {
		t.Errorf("got %q", got)
	}
}

// TestCommandsHandedOver: the command lines subprocesses get, as the
// shell reads them.
func TestCommandsHandedOver(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // language: text
		args      []string
		env       []string
	}{
		{"argv", "import subprocess\nsubprocess.run(['tar', '-cf', 'out', 'data dir'])", []string{"sh: tar -cf out 'data dir'"}, nil, nil},
		{"argv with an unknown word", "import subprocess, sys\nsubprocess.run(['cp', sys.argv[1], 'out'])", []string{`sh: cp "${__ahab_unknown_1}" out`}, []string{"?"}, nil},
		{"a program name alone", "import subprocess\nsubprocess.run('date')", []string{"sh: date"}, nil, nil},
		{"a shell string", "import subprocess\nsubprocess.run('date > out', shell=True)", []string{"sh: date > out"}, nil, nil},
		{"os.system of an f-string", "import os, sys\nos.system(f'gzip -c {sys.argv[1]} > out')", []string{"sh: gzip -c ${__ahab_unknown_1} > out"}, []string{"?"}, nil},
		{"shlex.join", "import shlex, subprocess\nsubprocess.run(shlex.join(['echo', 'a b']), shell=True)", []string{"sh: echo 'a b'"}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, runner := read(t, tc.src, program{args: tc.args, env: tc.env})
			var got []string
			for _, p := range runner.ran {
				got = append(got, p.Language+": "+p.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}

	// The environment goes with the command: the program's, as it
	// changed it.
	_, runner := read(t, "import os, subprocess\nos.environ['TZ'] = 'UTC'\nsubprocess.run(['date'], env=dict(os.environ, LC_ALL='C'))", program{env: []string{"SOURCE_DATE_EPOCH=0"}})
	if len(runner.ran) != 1 || !slices.Equal(runner.ran[0].Env, []string{"LC_ALL=C", "SOURCE_DATE_EPOCH=0", "TZ=UTC"}) {
		t.Errorf("environment handed over: %+v", runner.ran)
	}
}

// TestUnread: what cannot be followed is said so.
func TestUnread(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"syntax error", "print 'hello'", "line 1: python: invalid syntax at line 1: unexpected \"'hello'\""},
		{"exec of a computed string", "import sys\nexec(sys.argv[1])", "line 2: python: exec of code computed while the program runs is not followed"},
		{"a command computed", "import subprocess, sys\nsubprocess.run(sys.argv[1:])", "runs a command computed while the program runs"},
		{"too long to follow", "x = 0\nwhile True:\n    for i in range(60):\n        for j in range(60):\n            for k in range(60):\n                x += 1\n", "takes more than 200000 steps"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := read(t, tc.src, program{args: []string{"?"}})
			if !slices.ContainsFunc(out.Unread, func(u string) bool { return strings.Contains(u, tc.want) }) {
				t.Errorf("unread %q, want one containing %q", out.Unread, tc.want)
			}
		})
	}
}

// TestUses: the facts a source gives a program that reads it.
func TestUses(t *testing.T) {
	src := "import time as t\nfrom os import getpid\nimport json\nprint(t.time(), getpid(), json.dumps(1), sorted([]))\n"
	got := Reader{}.Uses(src, spec.Builtin())
	want := []string{"source:os.getpid", "source:sorted", "source:time.time"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (Reader{}).Uses("print 'x'", spec.Builtin()); got != nil {
		t.Errorf("a source that does not parse: %q", got)
	}
}
