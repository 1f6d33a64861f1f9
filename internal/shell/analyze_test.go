package shell

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/effect"
)

func analyze(t *testing.T, script string, args ...string) *Script {
	t.Helper()
	s, err := Analyze(Invocation{Shell: "/bin/bash", Script: script, Args: args}, Options{})
	if err != nil {
		t.Fatalf("Analyze(%q): %v", script, err)
	}
	return s
}

// sources renders the sources that reach a file as "kind text".
func sources(s *Script) []string {
	var out []string
	for _, src := range s.Sources {
		out = append(out, src.Value.String()+" "+src.Text)
	}
	return out
}

// TestSources is the data-flow semantics: which sources of variation reach
// a file. One row per construct and per trap.
func TestSources(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   []string
	}{
		// Shell-level sources.
		{"random to a file", "echo $RANDOM > out", []string{"random $RANDOM"}},
		{"random seeded first", "RANDOM=42; echo $RANDOM > out", nil},
		{"random seeded by export", "export RANDOM=42; echo $RANDOM > out", nil},
		{"srandom cannot be seeded", "SRANDOM=1; echo $SRANDOM > out", nil},
		{"srandom", "echo $SRANDOM > out", []string{"random $SRANDOM"}},
		{"pid", "echo $$ > out", []string{"pid $$"}},
		{"pid braced", "echo ${$} > out", []string{"pid $$"}},
		{"bashpid", "echo $BASHPID > out", []string{"pid $BASHPID"}},
		{"ppid", "echo $PPID > out", []string{"pid $PPID"}},
		{"last background pid", "sleep 1 & echo $! > out", []string{"pid $!"}},
		{"pwd variable", "echo $PWD > out", []string{"pwd $PWD"}},
		{"pwd command", "pwd > out", []string{"pwd pwd"}},
		{"pwd after cd to an absolute directory", "cd /tmp && pwd > out", nil},
		{"pwd variable is known after cd to an absolute directory", "cd /tmp; echo $PWD > $OLDPWD/out", nil},
		{"pwd in a subshell after cd does not leak out", "(cd /tmp); pwd > out", []string{"pwd pwd"}},
		{"seconds", "echo $SECONDS > out", []string{"clock $SECONDS"}},
		{"epochseconds", "echo $EPOCHSECONDS > out", []string{"clock $EPOCHSECONDS"}},
		{"epochrealtime", "printf '%s' \"$EPOCHREALTIME\" > out", []string{"clock $EPOCHREALTIME"}},
		{"hostname variable", "echo $HOSTNAME > out", []string{"hostname $HOSTNAME"}},
		{"uid variable", "echo $UID > out", []string{"user $UID"}},
		{"tmpdir", "echo $TMPDIR > out", []string{"tempname $TMPDIR"}},
		{"urandom operand", "head -c 8 /dev/urandom | od -An > out", []string{"urandom /dev/urandom"}},
		{"urandom redirect", "od -An -N8 < /dev/urandom > out", []string{"urandom /dev/urandom"}},
		{"urandom as dd's if=", "dd if=/dev/urandom bs=8 count=1 of=/dev/stdout > out", []string{"urandom /dev/urandom"}},
		{"kernel random uuid", "cat /proc/sys/kernel/random/uuid > out", []string{"urandom /proc/sys/kernel/random/uuid"}},
		{"dev zero is fixed", "head -c 8 /dev/zero | od -An > out", nil},

		// Commands that ask the machine.
		{"date", "date > out", []string{"clock date"}},
		{"date with a fixed date", "date -u -d @0 > out", nil},
		{"date with a bundled fixed date", "date -ud @0 > out", nil},
		{"date with a reference file", "date -r in +%s > out", []string{"mtime date"}},
		{"hostname", "hostname > out", []string{"hostname hostname"}},
		{"uname -n", "uname -n > out", []string{"hostname uname"}},
		{"uname -a", "uname -a > out", []string{"hostname uname", "uname uname"}},
		{"uname -sr", "uname -sr > out", []string{"uname uname"}},
		{"uname -s is the system's name", "uname -s > out", nil},
		{"uname -m is the architecture", "uname -m > out", nil},
		{"whoami", "whoami > out", []string{"user whoami"}},
		{"id -u", "id -u > out", []string{"user id"}},
		{"mktemp's name", "mktemp -u > out", []string{"tempname mktemp"}},
		{"uuidgen", "uuidgen > out", []string{"random uuidgen"}},
		{"openssl's random bytes", "openssl rand -hex 16 > out", []string{"urandom openssl"}},
		{"openssl's digest", "openssl dgst -sha256 -r a b > out", nil},
		{"openssl's new key", "openssl genpkey -algorithm ed25519 -out out", []string{"random openssl"}},
		{"openssl's self-signed certificate", "openssl req -x509 -newkey ec -nodes -keyout /dev/null -subj /CN=b -days 30 -out out", []string{"random openssl", "clock openssl"}},
		{"openssl signing, only the subject printed", "openssl x509 -req -signkey k -days 1 -set_serial 1 -noout -subject < csr > out", nil},
		{"uuidgen from a name", "uuidgen --sha1 --namespace @dns --name x > out", nil},
		{"nproc", "nproc > out", []string{"cpus nproc"}},
		{"getconf cpus", "getconf _NPROCESSORS_ONLN > out", []string{"cpus getconf"}},
		{"ls -l", "ls -l in > out", []string{"mtime ls", "owner ls", "mode ls"}},
		{"ls -la", "ls -la in > out", []string{"mtime ls", "owner ls", "mode ls"}},
		{"ls -l of a file the script made has Bazel's umask", "echo x > f; ls -l f > out", []string{"mtime ls", "owner ls"}},
		{"ls names", "ls in > out", nil},
		{"du of a directory", "du -k d/ > out", []string{"filemeta du", "order du"}},
		{"du of a directory, its total alone", "du -sk --apparent-size d/ > out", []string{"filemeta du"}},
		{"ls sizes on disk", "ls -s in > out", []string{"filemeta ls"}},
		{"vdir is a long listing", "vdir in > out", []string{"mtime vdir", "owner vdir", "mode vdir"}},
		{"stat default", "stat in > out", []string{"mtime stat", "owner stat", "mode stat", "inode stat", "filemeta stat"}},
		{"stat mtime", "stat -c %Y in > out", []string{"mtime stat"}},
		{"stat owner", "stat -c %U in > out", []string{"owner stat"}},
		{"stat mode of a source", "stat -c %a in > out", []string{"mode stat"}},
		{"stat mode of a file the script made", "echo x > f; stat -c %a f > out", nil},
		{"stat inode", "stat -c %i in > out", []string{"inode stat"}},
		{"stat size", "stat -c %s in > out", nil},
		{"find's order", "find d -type f > out", []string{"order find"}},
		{"find sorted", "find d -type f | sort > out", nil},
		{"find sorted in C", "find d -type f | LC_ALL=C sort > out", nil},
		{"find with times", "find d -printf '%T@ %p\\n' | sort > out", []string{"mtime find"}},
		{"find of files one by one lists them in that order", "find a.txt b.txt -printf '%p %s\\n' > out", nil},
		{"find with no operand lists the working directory", "find -type f > out", []string{"order find"}},
		{"find -ls", "find a.txt -ls > out", []string{"mtime find", "owner find", "mode find", "inode find", "filemeta find"}},
		{"find -exec cat", "find d -type f -exec cat {} + > out", []string{"order find"}},
		{"find -exec touch writes nothing", "find d -exec touch -d @0 {} + ; echo done > out", nil},
		{"printenv", "printenv > out", []string{"environment printenv"}},
		{"bare env", "env > out", []string{"environment env"}},
		{"printenv of one variable", "printenv PATH > out", nil},
		{"shuf", "seq 3 | shuf > out", []string{"random shuf"}},
		{"realpath", "realpath in > out", []string{"pwd realpath"}},
		{"realpath relative follows links", "realpath --relative-to=. in > out", []string{"pwd realpath"}},
		{"realpath relative without links", "realpath -s --relative-to=. in > out", nil},

		// Where output goes.
		{"script stdout is not kept", "date; echo hi > out", nil},
		{"stderr is not kept", "date >&2; echo hi > out", nil},
		{"dev null", "date > /dev/null", nil},
		{"append", "date >> out", []string{"clock date"}},
		{"all to a file", "date &> out", []string{"clock date"}},
		{"stdout to stderr to a file", "{ date >&2; } 2> out", []string{"clock date"}},
		{"stderr to stdout to a file", "date 2>&1 > out", []string{"clock date"}},
		{"clobber", "date >| out", []string{"clock date"}},
		{"dev stdout", "date > /dev/stdout", nil},
		{"exec redirects the rest", "exec > out; date", []string{"clock date"}},
		{"tee writes a file", "date | tee out", []string{"clock date"}},
		{"block", "{ echo header; date; } > out", []string{"clock date"}},
		{"subshell", "(echo header; date) > out", []string{"clock date"}},
		{"pipe", "date | sed 's/^/at /' > out", []string{"clock date"}},
		{"pipe discarded", "date | sed 's/^/at /' > /dev/null", nil},
		{"pipe into a quiet command", "date | true; echo hi > out", nil},
		{"long pipe", "date | tr a-z A-Z | cut -c1-3 | head -1 > out", []string{"clock date"}},
		{"if branch", "if true; then date > out; fi", []string{"clock date"}},
		{"case branch", "case x in x) date > out;; esac", []string{"clock date"}},
		{"while body", "while false; do date > out; done", []string{"clock date"}},
		{"for body", "for i in 1 2; do date >> out; done", []string{"clock date"}},
		{"background", "date > out &", []string{"clock date"}},
		{"and list", "true && date > out", []string{"clock date"}},
		{"or list", "false || date > out", []string{"clock date"}},
		{"time", "time date > out", []string{"clock date"}},
		{"negated", "! date > out", []string{"clock date"}},

		// Values that never reach a file.
		{"quoted name", `echo "date" > out`, nil},
		{"comment", "echo hi > out # date", nil},
		{"unused variable", "now=$(date); echo hi > out", nil},
		{"variable used", `now=$(date); echo "built $now" > out`, []string{"clock date"}},
		{"variable after reassignment", `now=$(date); now=fixed; echo "$now" > out`, nil},
		{"variable in one branch", `if x; then now=$(date); else now=fixed; fi; echo "$now" > out`, []string{"clock date"}},
		{"variable in a subshell does not leak", `(now=$(date)); echo "$now" > out`, nil},
		{"pid only in a file name", "echo hi > /tmp/x.$$; cp /tmp/x.$$ out", nil},
		{"pid file read back", "echo hi > /tmp/x.$$; cat /tmp/x.$$ > out", nil},
		{"mktemp as scratch", "d=$(mktemp -d); echo hi > $d/x; cp $d/x out; rm -rf $d", nil},
		{"mktemp file as scratch", `f=$(mktemp); echo hi > "$f"; cat "$f" > out`, nil},
		{"mktemp name printed", `f=$(mktemp); echo "$f" > out`, []string{"tempname mktemp"}},
		// tar records the times and owners of the files the action made.
		{"mktemp directory archived by name", "d=$(mktemp -d); tar -cf out $d/x", []string{"tempname mktemp", "mtime tar", "owner tar"}},
		{"mktemp directory archived relative", "d=$(mktemp -d); tar -cf out -C $d .", []string{"mtime tar", "owner tar"}},
		{"mktemp directory archived relative and normalised", "d=$(mktemp -d); tar --mtime=@0 --owner=0 --group=0 -cf out -C $d .", nil},
		{"mktemp directory listed relative", "d=$(mktemp -d); find $d -type f -printf '%P\\n' | sort > out", nil},
		{"pwd path given to a tool", "gen --root=$PWD --out out", nil},
		{"pwd remapped", "gcc -g -ffile-prefix-map=$PWD=. -c x.c -o out", nil},
		{"pwd path printed", `echo "root=$(pwd)" > out`, []string{"pwd pwd"}},
		{"clock as a tool's option", `gen --stamp "$(date +%s)" --out out`, []string{"clock date"}},
		{"clock in a sed script", `sed "s/@DAY@/$(date +%F)/" in > out`, []string{"clock date"}},
		{"clock as a sed file is a path", `sed -e s/a/b/ "/tmp/$(date +%s)" > out`, nil},
		{"random in arithmetic", "echo $((RANDOM % 6)) > out", []string{"random $RANDOM"}},
		{"random in a test only", "[ $RANDOM -gt 0 ] && echo hi > out", nil},
		{"sleep for a random time", "sleep $((RANDOM % 2)); echo hi > out", nil},
		{"read from a pipe", "date | { read now; echo \"$now\" > out; }", []string{"clock date"}},
		{"while read", "date | while read line; do echo \"$line\" >> out; done", []string{"clock date"}},

		// Substitutions, here-documents, functions and nested shells.
		{"command substitution", "echo $(date) > out", []string{"clock date"}},
		{"backquotes", "echo `date` > out", []string{"clock date"}},
		{"nested substitution", "echo $(echo $(date)) > out", []string{"clock date"}},
		{"substitution discarded", "echo $(date) > /dev/null; echo ok > out", nil},
		{"here-document", "cat > out <<EOF\nbuilt $(date)\nEOF", []string{"clock date"}},
		{"quoted here-document", "cat > out <<'EOF'\nbuilt $(date)\nEOF", nil},
		{"here-document given to bash", "bash > out <<'EOF'\ndate\nEOF\n", []string{"clock date"}},
		{"here-document given to bash, a fixed date", "bash > out <<'EOF'\ndate -u -d @0\nEOF\n", nil},
		{"here-string", "cat <<< \"$RANDOM\" > out", []string{"random $RANDOM"}},
		{"process substitution in", "cat <(date) > out", []string{"clock date"}},
		{"process substitution of fixed text", "diff <(echo a) <(echo a) > out", nil},
		{"process substitution out", "echo hi > >(cat > out); date > >(cat > out2)", []string{"clock date"}},
		{"function", "stamp() { date; }; stamp > out", []string{"clock date"}},
		{"function discarded", "stamp() { date; }; stamp > /dev/null; echo hi > out", nil},
		{"function never called", "stamp() { date > out; }; echo hi > out", nil},
		{"function arguments", `say() { echo "$1" > "$2"; }; say $RANDOM out`, []string{"random $RANDOM"}},
		{"eval", "eval 'date > out'", []string{"clock date"}},
		{"eval of a variable", `cmd='date > out'; eval "$cmd"`, []string{"clock date"}},
		{"nested bash", "bash -c 'date' > out", []string{"clock date"}},
		{"nested sh -c with arguments", `sh -c 'echo "$1" > "$2"' _ fixed out`, nil},
		{"nested bash sees exported variables", `export X=$RANDOM; bash -c 'echo $X > out'`, []string{"random $RANDOM"}},
		{"nested sh has no RANDOM", "sh -c 'echo $RANDOM > out'", nil},

		// Wrappers.
		{"env wrapper", "env LC_ALL=C date > out", []string{"clock date"}},
		{"env wrapper with options", "env -i PATH=/bin date -u -d @0 > out", nil},
		{"exec wrapper", "exec date > out", []string{"clock date"}},
		{"command wrapper", "command date > out", []string{"clock date"}},
		{"nice wrapper", "nice -n 5 date > out", []string{"clock date"}},
		{"nohup wrapper", "nohup date > out", []string{"clock date"}},
		{"timeout wrapper", "timeout -s KILL 5 date > out", []string{"clock date"}},
		{"xargs wrapper", "echo +%s | xargs date > out", []string{"clock date"}},
		{"xargs passes input as arguments", "echo $RANDOM | xargs echo > out", []string{"random $RANDOM"}},
		{"xargs without a command echoes", "echo $RANDOM | xargs > out", []string{"random $RANDOM"}},
		{"stdbuf wrapper", "stdbuf -oL date > out", []string{"clock date"}},
		{"xargs -P through a shell", `printf '1\n0\n' | xargs -P "$(nproc)" -I{} sh -c 'sleep {}; echo {}' > out`, []string{"parallel xargs"}},
		{"xargs -P 1 through a shell", `printf '1\n0\n' | xargs -P 1 -I{} sh -c 'sleep {}; echo {}' > out`, nil},
		{"parallel runs its command through a shell", `printf '1\n0\n' | parallel -j "$(nproc)" 'sleep {}; echo {}' > out`, []string{"parallel parallel"}},
		{"parallel keeps the order", `printf '1\n0\n' | parallel -k -j "$(nproc)" 'sleep {}; echo {}' > out`, nil},

		// Facts the commands before establish, and undo.
		{"touch -d fixes the times tar records", "touch -d @0 f.o; tar --owner=0 --group=0 --mode=0644 -cf out f.o", nil},
		{"strip gives the file a new time", "touch -d @0 f.o; strip f.o; tar --owner=0 --group=0 --mode=0644 -cf out f.o", []string{"mtime tar"}},
		{"strip -p keeps it", "touch -d @0 f.o; strip -p f.o; tar --owner=0 --group=0 --mode=0644 -cf out f.o", nil},
		{"coverage records the data file's directory", "gcc --coverage -frandom-seed=x -c x.c -o out", []string{"pwd gcc"}},
		{"coverage under PWD=/proc/self/cwd", "PWD=/proc/self/cwd gcc --coverage -frandom-seed=x -c x.c -o out", nil},
		{"a prefix map of the directory with a slash", "gcc -fmacro-prefix-map=$PWD/= -c $PWD/x.c -o out", nil},
		{"a loop over the files a command split into", `d=$(mktemp -d); seq 10 | split -n r/"$(nproc)" - "$d/part."; for s in "$d"/part.*; do echo "$(basename "$s")" >> out; done`, []string{"cpus nproc"}},
		{"a loop over a fixed split", `d=$(mktemp -d); seq 10 | split -n r/4 - "$d/part."; for s in "$d"/part.*; do echo "$(basename "$s")" >> out; done`, nil},
		{"a loop over what varies", `for i in $(seq "$(nproc)"); do echo job >> out; done`, []string{"cpus nproc"}},
		{"a loop over files under a temporary directory", `d=$(mktemp -d); for f in "$d"/*; do echo file >> out; done`, nil},
		{"basename of a file under a temporary directory", `d=$(mktemp -d); for s in "$d"/part.*; do echo "$(basename "$s")" >> out; done`, nil},
		{"basename of a file under a temporary directory, printed", `d=$(mktemp -d); basename "$d/x" > out`, nil},
		{"basename of the temporary directory", `d=$(mktemp -d); basename "$d" > out`, []string{"tempname mktemp"}},
		{"dirname of a file under a temporary directory", `d=$(mktemp -d); echo "$(dirname "$d/x")" > out`, []string{"tempname mktemp"}},
		{"stat of a temporary file without its name", `t=$(mktemp -d); cp a $t/; stat -c '%s' $t/* > out`, nil},
		{"stat of a temporary file with its name", `t=$(mktemp -d); cp a $t/; stat -c '%n %s' $t/* > out`, []string{"tempname mktemp"}},

		// Conditions: a value only tested reaches an output when what the
		// branches write depends on it.
		{"user tested picks the text", `if [ "$(id -u)" = 0 ]; then echo privileged; else echo unprivileged; fi > out`, []string{"user id"}},
		{"user tested by number", `if [ "$(id -u)" -eq 0 ]; then echo root > out; fi`, []string{"user id"}},
		{"user tested, nothing written in the branches", `if [ "$(id -u)" = 0 ]; then :; fi; echo done > out`, nil},
		{"clock tested against zero", `if [ "$(date +%s)" -gt 0 ]; then echo set; else echo unset; fi > out`, nil},
		{"processors tested against one", `if [ "$(nproc)" -ge 1 ]; then echo some > out; fi`, nil},
		{"processors compared with a number", `if [ "$(nproc)" -gt 4 ]; then echo many > out; fi`, []string{"cpus nproc"}},
		{"a file test of the directory", `if [ -d "$(pwd)/bazel-out" ]; then echo root; else echo elsewhere; fi > out`, nil},
		{"a file test of the directory in [[", `if [[ -d $PWD/bazel-out ]]; then echo root; fi > out`, nil},
		{"a string test in [[", `if [[ $(hostname) == build* ]]; then echo farm; fi > out`, []string{"hostname hostname"}},
		{"an arithmetic test", `if (( RANDOM % 2 )); then echo odd > out; fi`, []string{"random $RANDOM"}},
		{"a case of the host", `case $(hostname) in ci*) echo ci > out;; esac`, []string{"hostname hostname"}},
		{"a while condition", `while [ "$(date +%S)" != 00 ]; do echo tick >> out; break; done`, []string{"clock date"}},
		{"an else branch is picked too", `if [ "$(whoami)" = root ]; then :; else echo other > out; fi`, []string{"user whoami"}},

		// Conditions on known words are decided.
		{"a branch known not to run", `set -- --date 0; if [ "$1" = --date ]; then date -u -d "@$2" > out; else date > out; fi`, nil},
		{"the branch known to run", `set -- --now; if [ "$1" = --date ]; then date -u -d "@$2" > out; else date > out; fi`, []string{"clock date"}},
		{"a branch on an argument not known", `if [ "$1" = --date ]; then date -u -d "@$2" > out; else date > out; fi`, []string{"clock date"}},
		{"an elif decided", `x=b; if [ $x = a ]; then date > out; elif [ $x = b ]; then echo b > out; else date > out; fi`, nil},
		{"[[ decided", `x=yes; if [[ $x == y* ]]; then echo y > out; else date > out; fi`, nil},
		{"a case of a known word", `x=b; case $x in a) date > out;; b) echo b > out;; *) date > out;; esac`, nil},
		{"a case of a known word, no item matching", `x=c; case $x in a) date > out;; b) echo b > out;; esac`, nil},
		{"a case of a known word after an unknown pattern", `x=b; case $x in $(cat f)) date > out;; b) echo b > out;; esac`, []string{"clock date"}},

		// What a command gives the shell or the script it runs.
		{"an assignment before bash -c", `X=$RANDOM bash -c 'echo $X > out'`, []string{"random $RANDOM"}},
		{"a fixed assignment before bash -c", `JOBS=4 bash -c 'echo ${JOBS:-$(nproc)} > out'`, nil},
		{"bash -c without the assignment", `bash -c 'echo ${JOBS:-$(nproc)} > out'`, []string{"cpus nproc"}},
		{"env before bash -c", `env SOURCE_DATE_EPOCH=0 bash -c 'date -u -d @${SOURCE_DATE_EPOCH:-$(date +%s)} > out'`, nil},
		{"bash -c arguments keep what varies", `bash -c 'echo "$1" > out' _ "$(date)"`, []string{"clock date"}},
		{"a here-document given to bash -s with arguments", "bash -s out <<'EOF'\ndate > \"$1\"\nEOF", []string{"clock date"}},
		{"awk -v gives the program a value", `awk -v when="$(date)" 'BEGIN { print when }' > out`, []string{"clock date"}},
		{"a process substitution read by a loop", "while read -r f; do echo \"$f\"; done < <(find d -type f) > out", []string{"order find"}},
		{"a process substitution sorted", "while read -r f; do echo \"$f\"; done < <(find d -type f | sort) > out", nil},

		// Positional parameters.
		{"positional from the command line", `echo "$1" > out`, nil},
		{"set -- replaces them", `set -- $RANDOM; echo "$1" > out`, []string{"random $RANDOM"}},
		{"shift", `set -- a $RANDOM; shift; echo "$1" > out`, []string{"random $RANDOM"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := analyze(t, tt.script)
			if got := sources(s); !slices.Equal(got, tt.want) {
				t.Errorf("%s\nsources reaching a file: %q\nwant %q", tt.script, got, tt.want)
			}
		})
	}
}

// TestSourcesToOutputs is the data flow of scripts whose action declares
// its outputs: only a value that reaches one of them counts, and a scratch
// directory is none.
func TestSourcesToOutputs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		script string
		want   []string
	}{
		{"make -C writes under its directory, sorted after", `d=$(mktemp -d); make -s -C "$d" -j"$(nproc)" all; sort "$d/log" > out`, nil},
		{"make -C writes under its directory, read as it is", `d=$(mktemp -d); make -s -C "$d" -j"$(nproc)" all; cat "$d/log" > out`, []string{"parallel make"}},
		{"make -C of the output's directory", `make -s -C bazel-out/gen -j4 all`, []string{"parallel make"}},
		{"a file test asks whether it is there, not what it holds", `date > stamp; if [ -e stamp ]; then echo made > out; fi`, nil},
		{"cc -c without -o writes the object named after its source", `cc -g -c src/a.c && ar rcs out a.o`, []string{"pwd cc"}},
		{"the object of another source is not that one", `cc -g -c src/a.c && ar rcs out b.o`, nil},
		{"cc -c in a directory the script went to", `d=$(mktemp -d); cp src/a.c "$d"; cd "$d"; cc -g -c a.c; cd -; cp "$d/a.o" out`, []string{"pwd cc"}},
		{"cc -S writes the assembly named after its source", `cc -g -S a.c && cp a.s out`, []string{"pwd cc"}},
		{"cc -c -o names the object itself", `cc -g -c src/a.c -o obj.o && cp a.o out`, nil},
		{"an object of an unknown source may be any file", `cc -g -c "$SRC" && cp a.o out`, []string{"pwd cc"}},
		{"a here-document given to bash -s writing an output", "bash -s out <<'EOF'\ndate > \"$1\"\nEOF", []string{"clock date"}},
		{"a here-document given to bash -s writing elsewhere", "bash -s /tmp/x <<'EOF'\ndate > \"$1\"\nEOF", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Analyze(Invocation{Shell: "/bin/bash", Script: tt.script}, Options{Outputs: []string{"out", "bazel-out/gen/x.out"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := sources(s); !slices.Equal(got, tt.want) {
				t.Errorf("%s\nsources reaching an output: %q\nwant %q", tt.script, got, tt.want)
			}
		})
	}
}

// commandLines renders the commands as "argv | output", with Env first.
func commandLines(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		var b strings.Builder
		for _, e := range c.Env {
			b.WriteString(e.String() + " ")
		}
		for i, w := range c.Argv {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(quoteWord(w))
		}
		fmt.Fprintf(&b, " | %s", c.Output)
		out = append(out, b.String())
	}
	return out
}

// quoteWord brackets unknown parts: `-d @[$x]`.
func quoteWord(w Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if p.Known {
			b.WriteString(p.Text)
		} else {
			b.WriteString("[" + p.Text + "]")
		}
	}
	return b.String()
}

// TestCommands is word resolution and where each command's output goes.
func TestCommands(t *testing.T) {
	tests := []struct {
		name   string
		script string
		args   []string
		want   []string
	}{
		{"exported variable resolves", "export SOURCE_DATE_EPOCH=0; date -d @$SOURCE_DATE_EPOCH > out",
			nil, []string{"SOURCE_DATE_EPOCH=0 date -d @0 | sink"}},
		{"plain assignment is not the environment", "X=1; tool $X > out",
			nil, []string{"tool 1 | sink"}},
		{"assignment before a command is its environment", "TZ=UTC date > out",
			nil, []string{"TZ=UTC date | sink"}},
		{"env wrapper gives its assignments", "env TZ=UTC LC_ALL=C date > out",
			nil, []string{"TZ=UTC LC_ALL=C date | sink"}},
		{"local and declare", "f() { local a=1; declare -x b=2; tool $a $b; }; f > out",
			nil, []string{"b=2 tool 1 2 | sink"}},
		{"readonly", "readonly A=x; tool $A > out", nil, []string{"tool x | sink"}},
		{"unknown parts stay unknown", "tool -d @$(cat f) $HOME > out",
			nil, []string{"cat f | sink", "tool -d @[$(cat f)] [$HOME] | sink"}},
		{"word splitting of a known value", `FLAGS="-a -b"; tool $FLAGS "$FLAGS" > out`,
			nil, []string{"tool -a -b -a -b | sink"}},
		{"empty unquoted expansion vanishes", `E=; tool $E x "$E" > out`,
			nil, []string{"tool x  | sink"}},
		{"default of a variable the script unset", `unset U; tool ${U:-fallback} > out`, nil, []string{"tool fallback | sink"}},
		{"default of an inherited variable is unknown", `tool ${X:-fallback} > out`, nil, []string{"tool [${X:-fallback}] | sink"}},
		{"default of a set variable", `S=yes; tool ${S:-no} ${S:+alt} > out`, nil, []string{"tool yes alt | sink"}},
		{"single and double quotes", `tool 'a b' "c $X" d\ e > out`, nil, []string{"tool a b c [$X] d e | sink"}},
		{"ansi-c quotes", `tool $'a\tb' > out`, nil, []string{"tool a\tb | sink"}},
		{"positional parameters", `tool "$1" "$@" $# > out`, []string{"zero", "one", "two words"},
			[]string{"tool one one two words 2 | sink"}},
		{"$* unquoted splits", `tool $* > out`, []string{"zero", "one", "two words"},
			[]string{"tool one two words | sink"}},
		{"$0", `tool "$0" > out`, []string{"name"}, []string{"tool name | sink"}},
		{"for loop over one word", `for f in a; do tool $f; done > out`, nil, []string{"tool a | sink"}},
		{"for loop over several known words", `for f in a b; do tool $f; done > out`, nil, []string{"tool a | sink", "tool b | sink"}},
		{"for loop over words not known", `for f in $(ls); do tool $f; done > out`, nil, []string{"ls | sink", "tool [$f] | sink"}},
		{"output uncaptured", "tool", nil, []string{"tool | sink"}},
		{"known quiet program uncaptured", "sed s/a/b/ in", nil, []string{"sed s/a/b/ in | uncaptured"}},
		{"discarded", "sed s/a/b/ in > /dev/null", nil, []string{"sed s/a/b/ in | discarded"}},
		{"gzip -c writes to stdout", "gzip -c in", nil, []string{"gzip -c in | uncaptured"}},
		{"gzip writes a file", "gzip in", nil, []string{"gzip in | sink"}},
		{"sed -i writes a file", "sed -i s/a/b/ f", nil, []string{"sed -i s/a/b/ f | sink"}},
		{"sort -o writes a file", "sort -o f f", nil, []string{"sort -o f f | sink"}},
		{"builtins that change the state are the language", "cd /tmp; echo hi", nil, []string{"echo hi | uncaptured"}},
		{"find -exec lists both", "find . -name x -exec cat {} ';' > out", nil,
			[]string{"find . -name x -exec cat {} ; | sink", "cat [{}] | sink"}},
		{"xargs appends its input", "ls | xargs -n1 wc -l > out", nil,
			[]string{"ls | sink", "wc -l [{xargs}] | sink"}},
		{"genrule prefix is Bazel's", "source external/bazel_tools/tools/genrule/genrule-setup.sh; cat in > out", nil,
			[]string{"cat in | sink"}},
		{"genrule prefix with sibling layout", "source ../bazel_tools/tools/genrule/genrule-setup.sh; cat in > out", nil,
			[]string{"cat in | sink"}},
		{"a sourced script is read, not listed", "source tools/env.sh; cat in > out", nil,
			[]string{"cat in | sink"}},
		{"eval with unknown words is a command", `eval "$CMD"`, nil, []string{"eval [$CMD] | sink"}},
		{"nested shell with an unknown script is a command", `bash -c "$CMD"`, nil, []string{"bash -c [$CMD] | sink"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := analyze(t, tt.script, tt.args...)
			if got := commandLines(s); !slices.Equal(got, tt.want) {
				t.Errorf("%s\ncommands: %q\nwant      %q", tt.script, got, tt.want)
			}
		})
	}
}

func TestGenruleFlag(t *testing.T) {
	s := analyze(t, "source external/bazel_tools/tools/genrule/genrule-setup.sh; echo hi > out")
	if !s.Genrule {
		t.Error("the genrule prefix was not recognised")
	}
	if s := analyze(t, "echo hi > out; source external/bazel_tools/tools/genrule/genrule-setup.sh"); s.Genrule {
		t.Error("a genrule prefix that is not first was taken for Bazel's")
	}
}

func TestPositionsAndText(t *testing.T) {
	script := "source external/bazel_tools/tools/genrule/genrule-setup.sh; x=1\n  date -u |\n  sed 's/^/at /' > out; eval 'hostname >> out'"
	s := analyze(t, script)
	type cmd struct {
		text      string
		line, col int
	}
	var got []cmd
	for _, c := range s.Commands {
		got = append(got, cmd{c.Text, c.Pos.Line, c.Pos.Column})
		if script[c.Pos.Offset:][:len(c.Argv[0].String())] != c.Argv[0].String() {
			t.Errorf("%q: offset %d does not point at the program", c.Text, c.Pos.Offset)
		}
	}
	want := []cmd{
		{"date -u", 2, 3},
		{"sed 's/^/at /' > out", 3, 3},
		{"hostname >> out", 3, 31},
	}
	if !slices.Equal(got, want) {
		t.Errorf("commands at %v, want %v", got, want)
	}
	type src struct {
		value   effect.Value
		text    string
		pos     Pos
		site    effect.Site
		command int
	}
	var gotSources []src
	for _, x := range s.Sources {
		gotSources = append(gotSources, src{x.Value, x.Text, x.Pos, x.Site, x.Command})
	}
	wantSources := []src{
		{effect.Clock, "date", Pos{Offset: strings.Index(script, "date"), Line: 2, Column: 3}, effect.Site{Line: 2}, 0},
		{effect.Hostname, "hostname", Pos{Offset: strings.Index(script, "hostname"), Line: 3, Column: 31}, effect.Site{Line: 3}, 2},
	}
	if !slices.Equal(gotSources, wantSources) {
		t.Errorf("sources %+v, want %+v", gotSources, wantSources)
	}
}

func TestHereDocumentTextIsOneLine(t *testing.T) {
	s := analyze(t, "cat > out <<EOF\nline $(date)\nEOF")
	for _, c := range s.Commands {
		if strings.Contains(c.Text, "\n") {
			t.Errorf("text %q has a newline", c.Text)
		}
	}
	if s.Commands[1].Text != "cat > out <<EOF" {
		t.Errorf("text %q, want the command without the body", s.Commands[1].Text)
	}
}

// A here-document with a quoted delimiter given to a shell is its body
// alone: the delimiter line is not a command of the nested script.
func TestHereDocumentScriptEndsBeforeItsDelimiter(t *testing.T) {
	s := analyze(t, "bash -s a b <<'EOF' > out\necho \"$1\"\nEOF\n")
	for _, c := range s.Commands {
		if name, _ := c.Program().Value(); name == "EOF" {
			t.Errorf("the delimiter is read as a command: %q", c.Text)
		}
	}
}

func TestContexts(t *testing.T) {
	s := analyze(t, "f() { echo $(date | tr a b) > out; }; f; xargs -n1 cat < in > out; bash -c 'if true; then uname; fi'")
	got := map[string]string{}
	for _, c := range s.Commands {
		var names []string
		for _, x := range c.Context {
			names = append(names, x.String())
		}
		got[c.Argv[0].String()] = strings.Join(names, ", ")
	}
	want := map[string]string{
		"date":  "function f, substitution, pipeline",
		"tr":    "function f, substitution, pipeline",
		"echo":  "function f",
		"cat":   "wrapper xargs",
		"uname": "shell bash, branch",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s in %q, want %q", k, got[k], v)
		}
	}
}

func TestSourceCommandIndex(t *testing.T) {
	s := analyze(t, "x=$RANDOM; echo hi > a; echo $x | tr 0-9 a-j > b")
	if len(s.Sources) != 1 {
		t.Fatalf("sources %v", sources(s))
	}
	if c := s.Commands[s.Sources[0].Command]; c.Argv[0].String() != "echo" || c.Argv[1].String() != "$x" {
		t.Errorf("source enters %q, want the echo of $x", c.Text)
	}
}

func TestSpecArgs(t *testing.T) {
	s := analyze(t, "export TZ=UTC; LC_ALL=C date -d @0 +%s > out")
	got := s.Commands[0].SpecArgs()
	want := []string{"TZ=UTC", "LC_ALL=C", "-d", "@0", "+%s"}
	if !slices.Equal(got, want) {
		t.Errorf("SpecArgs %q, want %q", got, want)
	}
}

func TestDialect(t *testing.T) {
	s, err := Analyze(Invocation{Shell: "sh", Dialect: POSIX, Script: "echo $RANDOM $$ > out"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sources(s); !slices.Equal(got, []string{"pid $$"}) {
		t.Errorf("sh sources %q, want only $$: sh has no $RANDOM", got)
	}
	if _, err := Analyze(Invocation{Shell: "sh", Dialect: POSIX, Script: "a=(1 2)"}, Options{}); err == nil {
		t.Error("sh accepted an array, which is bash's")
	}
}

func TestParseError(t *testing.T) {
	for _, tt := range []struct {
		script string
		line   int
		col    int
	}{
		{"echo 'unterminated", 1, 6},
		{"echo ok\nif true; then echo", 2, 1},
		{"echo $(", 1, 6},
		{"a && ", 1, 3},
	} {
		_, err := Analyze(Invocation{Shell: "bash", Script: tt.script}, Options{})
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v, want a *ParseError", tt.script, err)
			continue
		}
		if pe.Pos.Line != tt.line || pe.Pos.Column != tt.col {
			t.Errorf("%q: at %d:%d, want %d:%d (%v)", tt.script, pe.Pos.Line, pe.Pos.Column, tt.line, tt.col, err)
		}
		if !strings.HasPrefix(err.Error(), fmt.Sprintf("script does not parse at line %d column %d: ", tt.line, tt.col)) {
			t.Errorf("%q: message %q", tt.script, err)
		}
	}
}

func TestRecognize(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		ok   bool
		want Invocation
	}{
		{"genrule", []string{"/bin/bash", "-c", "echo hi"}, true,
			Invocation{Shell: "/bin/bash", Script: "echo hi", Args: []string{}}},
		{"run_shell with arguments", []string{"/bin/bash", "-c", `echo "$1"`, "", "a", "b"}, true,
			Invocation{Shell: "/bin/bash", Script: `echo "$1"`, Args: []string{"", "a", "b"}}},
		{"options before -c", []string{"bash", "-e", "-o", "pipefail", "-c", "x"}, true,
			Invocation{Shell: "bash", Options: []string{"-e", "-o", "pipefail"}, Script: "x", Args: []string{}}},
		{"bundled -ec", []string{"/usr/bin/bash", "-euc", "x", "zero"}, true,
			Invocation{Shell: "/usr/bin/bash", Options: []string{"-eu"}, Script: "x", Args: []string{"zero"}}},
		{"-c before other options", []string{"bash", "-c", "-e", "x"}, true,
			Invocation{Shell: "bash", Options: []string{"-e"}, Script: "x", Args: []string{}}},
		{"long options", []string{"bash", "--norc", "--noprofile", "-c", "x"}, true,
			Invocation{Shell: "bash", Options: []string{"--norc", "--noprofile"}, Script: "x", Args: []string{}}},
		{"sh is POSIX", []string{"/bin/sh", "-c", "x"}, true,
			Invocation{Shell: "/bin/sh", Dialect: POSIX, Script: "x", Args: []string{}}},
		{"dash", []string{"dash", "-c", "x"}, true,
			Invocation{Shell: "dash", Dialect: POSIX, Script: "x", Args: []string{}}},
		{"through env", []string{"/usr/bin/env", "bash", "-c", "x"}, true,
			Invocation{Shell: "bash", Script: "x", Args: []string{}}},
		{"a script file", []string{"/bin/bash", "bazel-out/k8-fastbuild/bin/x.genrule_script.sh"}, false, Invocation{}},
		{"no script after -c", []string{"/bin/bash", "-c"}, false, Invocation{}},
		{"not a shell", []string{"/usr/bin/python3", "-c", "print(1)"}, false, Invocation{}},
		{"zsh is not read", []string{"zsh", "-c", "x"}, false, Invocation{}},
		{"empty", nil, false, Invocation{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Recognize(tt.argv)
			if ok != tt.ok {
				t.Fatalf("Recognize(%q) ok = %v, want %v", tt.argv, ok, tt.ok)
			}
			if !ok {
				return
			}
			if got.Shell != tt.want.Shell || got.Dialect != tt.want.Dialect || got.Script != tt.want.Script ||
				!slices.Equal(got.Options, tt.want.Options) || !slices.Equal(got.Args, tt.want.Args) {
				t.Errorf("Recognize(%q) = %+v, want %+v", tt.argv, got, tt.want)
			}
		})
	}
}

// TestHostileScripts: deep nesting, recursion and eval bombs end quickly
// with a partial model instead of running away.
func TestHostileScripts(t *testing.T) {
	tests := []struct {
		name      string
		script    string
		truncated bool
	}{
		{"recursive function", "f() { f; f; }; f", true},
		{"mutual recursion", "a() { b; }; b() { a; }; a > out", true},
		{"eval bomb", `x='eval "$x"'; eval "$x"`, true},
		{"nested bash -c", "bash -c \"bash -c 'bash -c date'\" > out", false},
		{"subshells nested within the bound", strings.Repeat("( ", 150) + "date" + strings.Repeat(" )", 150), false},
		{"deep substitutions", strings.Repeat("echo $(", 500) + "date" + strings.Repeat(")", 500), true},
		{"many commands", strings.Repeat("echo x; ", 30000), true},
		{"long word", "echo " + strings.Repeat("a", 1<<20) + " > out", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Analyze(Invocation{Shell: "bash", Script: tt.script}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.Truncated != tt.truncated || s.Truncated != (len(s.Unread) > 0) {
				t.Errorf("Truncated = %v, want %v", s.Truncated, tt.truncated)
			}
			if len(s.Commands) > maxCommands {
				t.Errorf("%d commands listed, more than the bound %d", len(s.Commands), maxCommands)
			}
		})
	}
}

func TestExportedSourceReachesOnlyUnknownTools(t *testing.T) {
	if got := sources(analyze(t, "export STAMP=$(date); echo hi > out")); got != nil {
		t.Errorf("an exported value reached echo's output: %q", got)
	}
	if got := sources(analyze(t, "export STAMP=$(date); tool --out out")); !slices.Equal(got, []string{"clock date"}) {
		t.Errorf("an exported value did not reach an unknown tool: %q", got)
	}
}

// What the script gives a command besides its arguments: a pipe on its
// standard input, and what earlier commands established.
func TestWhatTheScriptGivesACommand(t *testing.T) {
	for _, tc := range []struct {
		script, command string
		piped           bool
		facts           []string
	}{
		{"cat a | gzip > out", "gzip", true, nil},
		{"gzip < a > out", "gzip", false, nil},
		{"touch -d @0 d/*; zip -X out.zip d/*", "zip", false, []string{"fixed:mtime"}},
		{"touch d/x; zip -X out.zip d/*", "zip", false, nil},
		{"zip -X out.zip d/*; touch -t 200001010000 d/x", "zip", false, nil},
		{"(cd d && touch --date=@0 *); tar -cf out.tar d", "tar", false, []string{"fixed:mtime"}},
		{"chmod -R u=rwX,go=rX d; tar -cf out.tar d", "tar", false, []string{"fixed:mode"}},
		{"umask 022; tar -cf out.tar d", "tar", false, []string{"fixed:mode"}},
	} {
		s, err := Analyze(Invocation{Shell: "/bin/bash", Script: tc.script}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range s.Commands {
			if name, _ := c.Program().Value(); name == tc.command {
				found = true
				if c.FromPipe != tc.piped || !slices.Equal(c.Facts, tc.facts) {
					t.Errorf("%s: %s reads a pipe %v and sees %q, want %v and %q", tc.script, tc.command, c.FromPipe, c.Facts, tc.piped, tc.facts)
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s command", tc.script, tc.command)
		}
	}
}

// A script nested past the bound is refused quickly, with an error that
// says so, whatever its size: the parser would recurse for minutes.
func TestTooDeeplyNested(t *testing.T) {
	for _, script := range []string{
		strings.Repeat("( ", 3000) + "date" + strings.Repeat(" )", 3000),
		strings.Repeat("(", 100000),
		"echo " + strings.Repeat("$(", 2000) + "date" + strings.Repeat(")", 2000),
	} {
		_, err := Analyze(Invocation{Shell: "bash", Script: script}, Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || !pe.TooDeep || !strings.Contains(err.Error(), "too deeply nested") {
			t.Errorf("%.20q…: error %v, want one saying the script is too deeply nested", script, err)
		}
	}
}

// What the analysis cannot follow it says, rather than guess.
func TestUnread(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{`eval "$CMD"`, "eval of a string computed while the script runs"},
		{"source tools/env.sh", "source tools/env.sh: the workspace is not known"},
		{`bash -c "$CMD"`, "a shell runs a script computed while the script runs"},
		{`python3 -c 'print(1)' > out`, "python3 runs python code, which is not read here"},
	} {
		s := analyze(t, tc.script)
		if !slices.ContainsFunc(s.Unread, func(u string) bool { return strings.HasPrefix(u, tc.want) }) {
			t.Errorf("%s: unread %q, want one starting %q", tc.script, s.Unread, tc.want)
		}
	}
}
