package perl_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/perl"
	"github.com/ahab-go/ahab/internal/spec"
)

func run(t *testing.T, p code.Program, ws code.Files) code.Outcome {
	t.Helper()
	r := interp.New(spec.Builtin(), ws, interp.Readers())
	p.Language = code.Perl
	if p.Outputs == nil {
		p.Outputs = []string{"out"}
	}
	return r.Run(p)
}

// TestSources is the semantics: which varying values reach what a Perl
// program prints or writes. One row per construct, each beside its twin
// that does not vary.
func TestSources(t *testing.T) {
	tests := []struct {
		name, prog string
		want       []string
	}{
		// What varies.
		{"time printed", `print time, "\n";`, []string{"stdout clock time"}},
		{"time to stderr", `print STDERR time, "\n";`, nil},
		{"time only compared", `print "late\n" if time > 1700000000;`, nil},
		{"time divided", `print time / 60;`, []string{"stdout clock time"}},
		{"a constant divided is not a pattern", `my $x = 10; print $x / 2 / 1;`, nil},
		{"localtime with no argument", `print scalar localtime;`, []string{"stdout clock localtime"}},
		{"localtime of a fixed time", `print scalar localtime(0);`, nil},
		{"localtime of the time", `my @t = localtime(time); print "$t[5]\n";`, []string{"stdout clock time"}},
		{"strftime of localtime", "use POSIX qw(strftime);\nprint strftime('%Y-%m-%d', localtime), \"\\n\";", []string{"stdout clock localtime"}},
		{"strftime of a fixed time", "use POSIX qw(strftime);\nprint strftime('%Y-%m-%d', gmtime(0));", nil},
		{"qualified strftime", `print POSIX::strftime("%Y", gmtime);`, []string{"stdout clock gmtime"}},
		{"rand", `print rand(10);`, []string{"stdout random rand(10)"}},
		{"rand after srand with a constant", `srand(42); print int(rand(10));`, nil},
		{"rand after srand of the time", `srand(time); print rand();`, []string{"stdout random rand()"}},
		{"srand's chosen seed", `print srand();`, []string{"stdout random srand()"}},
		{"pid", `print "$$\n";`, []string{"stdout pid $$"}},
		{"pid in a file name only", `open(my $fh, '>', "/tmp/x.$$") or die; print $fh "hi\n";`, nil},
		{"ppid", `print getppid();`, []string{"stdout pid getppid()"}},
		{"hostname", "use Sys::Hostname;\nprint hostname(), \"\\n\";", []string{"stdout hostname hostname()"}},
		{"hostname only compared", "use Sys::Hostname;\nprint \"ci\\n\" if hostname() eq 'ci';", nil},
		{"login", `print getlogin();`, []string{"stdout user getlogin()"}},
		{"user id through getpwuid", `my $u = (getpwuid($<))[0]; print "$u\n";`, []string{"stdout user $<"}},
		{"root's entry", `my $u = (getpwuid(0))[0]; print "$u\n";`, nil},
		{"effective user", `print $>;`, []string{"stdout user $>"}},
		{"cwd", "use Cwd;\nprint cwd(), \"\\n\";", []string{"stdout pwd cwd()"}},
		{"getcwd qualified", `print Cwd::getcwd();`, []string{"stdout pwd Cwd::getcwd()"}},
		{"abs_path", "use Cwd 'abs_path';\nprint abs_path('x');", []string{"stdout pwd abs_path('x')"}},
		{"FindBin", "use FindBin;\nprint \"$FindBin::Bin\\n\";", []string{"stdout pwd $FindBin::Bin"}},
		{"the whole environment", `print map { "$_=$ENV{$_}\n" } sort keys %ENV;`, []string{"stdout environment %ENV"}},
		{"one environment variable", `print "$ENV{LANG}\n";`, nil},
		{"start time", `print $^T;`, []string{"stdout clock $^T"}},
		{"stat", `my @s = stat('in.txt'); print $s[9];`, []string{"stdout mtime stat('in.txt')"}},
		{"stat's size", `my @s = stat('in.txt'); print $s[7];`, nil},
		{"a field of stat's list", `printf "%04o\n", (stat 'in.txt')[2] & 07777;`, []string{"stdout mode stat 'in.txt'"}},
		{"stat in a list", `my ($dev, $ino) = stat 'in.txt'; print $ino;`, []string{"stdout inode stat 'in.txt'"}},
		{"Archive::Tar records the files' metadata", "use Archive::Tar; my $t = Archive::Tar->new; $t->add_files('in.txt'); $t->write('out');",
			[]string{"file mtime $t->add_files('in.txt')", "file owner $t->add_files('in.txt')", "file mode $t->add_files('in.txt')"}},
		{"Archive::Tar given the metadata", "use Archive::Tar; my $t = Archive::Tar->new; $t->add_data('a', 'x', {mtime => 0, uid => 0, gid => 0}); $t->write('out');", nil},
		{"Archive::Tar written elsewhere", "use Archive::Tar; my $t = Archive::Tar->new; $t->add_files('in.txt'); $t->write('/tmp/x.tar');", nil},

		// Conditions on what the program is given are decided.
		{"a branch the arguments pick", `if ($ARGV[0] eq 'x') { print STDERR time; print "quiet" } else { print time }`, nil},
		{"the other branch", `if ($ARGV[0] eq 'y') { print "quiet" } else { print time }`, []string{"stdout clock time"}},
		{"a branch on an argument not known", `if ($ARGV[1] eq 'y') { print "quiet" } else { print time }`, []string{"stdout clock time"}},
		{"an argument not given is undefined", `my ($a, $b, $c) = @ARGV; srand(1) if defined $c; print rand;`, []string{"stdout random rand"}},
		{"an argument given is defined", `my ($a) = @ARGV; srand(1) if defined $a; print rand;`, nil},
		{"grep counts what it keeps", `my @o = ('x', 'y'); my $s = grep { $_ eq 'x' } @o; my %h = (a => 1, b => 2); my @k = keys %h; @k = sort @k if $s; print @k;`, nil},
		{"grep keeps nothing", `my @o = ('x', 'y'); my $s = grep { $_ eq 'z' } @o; my %h = (a => 1, b => 2); my @k = keys %h; @k = sort @k if $s; print @k;`, []string{"stdout hashseed keys %h"}},
		{"a ternary decided", `print $ARGV[0] eq 'x' ? 1 : time;`, nil},
		{"a time clamped to SOURCE_DATE_EPOCH", `my $t = (stat 'in.txt')[9]; $t = $ENV{SOURCE_DATE_EPOCH} if defined $ENV{SOURCE_DATE_EPOCH} && $t > $ENV{SOURCE_DATE_EPOCH}; print $t;`, nil},
		{"a time not clamped", `my $t = (stat 'in.txt')[9]; $t = $ENV{NOT_SET} if defined $ENV{NOT_SET} && $t > $ENV{NOT_SET}; print $t;`, []string{"stdout mtime stat 'in.txt'"}},
		{"recursion decides nothing", `sub f { my $n = shift; return $n ? f($n - 1) : time } print f(3);`, []string{"stdout clock time"}},
		{"stat only compared", `print "new\n" if (stat('in.txt'))[9] > 0;`, nil},
		{"age of a file", `printf "%.1f\n", -M 'in.txt';`, []string{"stdout mtime -M"}},
		{"size of a file", `print -s 'in.txt';`, nil},
		{"temp file name", "use File::Temp qw(tempfile);\nmy ($fh, $name) = tempfile();\nprint \"$name\\n\";", []string{"stdout tempname tempfile()"}},
		{"temp object's name", "use File::Temp;\nmy $t = File::Temp->new;\nprint $t->filename, \"\\n\";", []string{"stdout tempname File::Temp->new", "stdout tempname $t->filename"}},

		// Orders.
		{"keys printed", `my %h = (a => 1, b => 2); print join(",", keys %h), "\n";`, []string{"stdout hashseed keys %h"}},
		{"keys sorted", `my %h = (a => 1, b => 2); print join(",", sort keys %h), "\n";`, nil},
		{"keys sorted by a block", `my %h = (a => 1); for my $k (sort { $a cmp $b } keys %h) { print "$k\n" }`, nil},
		{"keys with a fixed hash seed", `my %h = (a => 1); print keys %h;`, nil},
		{"values printed", `my %h = (a => 1, b => 2); print values %h;`, []string{"stdout hashseed values %h"}},
		{"each in a loop", `my %h = (a => 1); while (my ($k, $v) = each %h) { print "$k=$v\n" }`, []string{"stdout hashseed each %h"}},
		{"keys counted", `my %h = (a => 1); print scalar(keys %h);`, nil},
		{"keys of a reference", `my $r = {a => 1}; print join(" ", keys %$r);`, []string{"stdout hashseed keys %$r"}},
		{"hash in list context", `my %h = (a => 1, b => 2); my @l = %h; print "@l\n";`, []string{"stdout hashseed %h"}},
		{"readdir", `opendir(my $d, '.') or die; print join("\n", readdir($d));`, []string{"stdout order readdir($d)"}},
		{"readdir sorted", `opendir(my $d, '.') or die; print join("\n", sort readdir($d));`, nil},
		{"glob sorts", `print join("\n", glob("*.txt")), "\n"; print <*.c>;`, nil},
		{"Dumper of a hash", "use Data::Dumper;\nmy %h = (a => 1);\nprint Dumper(\\%h);", []string{"stdout hashseed Dumper(\\%h)"}},
		{"Dumper with sorted keys", "use Data::Dumper;\n$Data::Dumper::Sortkeys = 1;\nmy %h = (a => 1);\nprint Dumper(\\%h);", nil},
		{"Dumper of a list", "use Data::Dumper;\nmy @l = (1, 2);\nprint Dumper(\\@l);", nil},

		// Where the output goes.
		{"to a file that is an output", `open(my $fh, '>', 'out') or die; print $fh time;`, []string{"file clock time"}},
		{"to a file that is not an output", `open(my $fh, '>', '/tmp/scratch') or die; print $fh time;`, nil},
		{"to a file named at run time", `open(my $fh, '>', $ARGV[1]) or die; print $fh time;`, []string{"file clock time"}},
		{"to a file named by an argument", `shift; my $out = shift; open(my $fh, '>', $out) or die; print {$fh} time;`, []string{"file clock time"}},
		{"two-argument open", `open(OUT, ">out") || die; print OUT time;`, []string{"file clock time"}},
		{"two-argument open of a scratch file", `open(OUT, ">/tmp/x") || die; print OUT time;`, nil},
		{"appending", `open(my $fh, '>>', 'out'); printf $fh "%d\n", time;`, []string{"file clock time"}},
		{"STDOUT reopened onto an output", `open(STDOUT, '>', 'out'); print time;`, []string{"file clock time"}},
		{"STDOUT reopened onto a scratch file", `open(STDOUT, '>', '/dev/null'); print time;`, nil},
		{"select", `open(my $fh, '>', 'out'); select($fh); print time;`, []string{"file clock time"}},
		{"select STDERR", `select(STDERR); print time;`, nil},
		{"to a string", `my $buf = ''; open(my $fh, '>', \$buf); print $fh time; close $fh; print $buf;`, []string{"stdout clock time"}},
		{"to a string never printed", `my $buf = ''; open(my $fh, '>', \$buf); print $fh time; close $fh;`, nil},
		{"say", `use feature 'say'; say time;`, []string{"stdout clock time"}},
		{"warn and die", `warn time; die "at " . time;`, nil},

		// Commands.
		{"backticks", "my $d = `date`; print $d;", []string{"stdout clock date"}},
		{"backticks not printed", "my $d = `date`; print \"ok\\n\";", nil},
		{"qx with a fixed date", `my $d = qx{date -u -d @0}; print $d;`, nil},
		{"system prints", `system("date");`, []string{"stdout clock date"}},
		{"system with a list", `system("date", "+%s");`, []string{"stdout clock date"}},
		{"system with a fixed command", `system("echo", "hi");`, nil},
		{"a pipe from a command", `open(my $p, '-|', 'date') or die; my $l = <$p>; print $l;`, []string{"stdout clock date"}},
		{"a two-argument pipe", `open(P, "date |") or die; while (<P>) { print }`, []string{"stdout clock date"}},
		{"reading urandom", `open(my $r, '<', '/dev/urandom'); read($r, my $buf, 8); my $l = <$r>; print $l;`, []string{"stdout urandom /dev/urandom"}},
		{"reading a workspace file", `open(my $r, '<', 'in.txt'); while (my $l = <$r>) { print $l }`, nil},

		// Flow through the language.
		{"through a variable", `my $t = time; my $s = "built at $t"; print "$s\n";`, []string{"stdout clock time"}},
		{"overwritten before printing", `my $t = time; $t = 0; print $t;`, nil},
		{"assigned in a branch", `my $t = 0; if (@ARGV) { $t = time } print $t;`, []string{"stdout clock time"}},
		{"assigned in a loop", `my $s = ''; for my $i (1..3) { $s .= rand() } print $s;`, []string{"stdout random rand()"}},
		{"through an array", `my @a = (1, time); print $a[1];`, []string{"stdout clock time"}},
		{"another element of the array", `my @a = (1, time); print $a[0];`, nil},
		{"through a hash", `my %h = (t => time, n => 1); print $h{t};`, []string{"stdout clock time"}},
		{"another key of the hash", `my %h = (t => time, n => 1); print $h{n};`, nil},
		{"through a reference", `my $r = {t => time}; print $r->{t};`, []string{"stdout clock time"}},
		{"through a sub", `sub now { return time } print now();`, []string{"stdout clock time"}},
		{"a sub's last value", `sub now { time } print now(), "\n";`, []string{"stdout clock time"}},
		{"a sub returning a constant", `sub one { return 1 } print one(time);`, nil},
		{"through a sub's argument", `sub show { my ($x) = @_; print "$x\n" } show(time);`, []string{"stdout clock time"}},
		{"through shift in a sub", `sub show { my $x = shift; print $x } show(rand);`, []string{"stdout random rand"}},
		{"a sub called before it is defined", `print stamp(); sub stamp { scalar localtime }`, []string{"stdout clock localtime"}},
		{"recursion ends", `sub f { my $n = shift; return $n ? f($n - 1) : time } print f(3);`, []string{"stdout clock time"}},
		{"an anonymous sub", `my $f = sub { time }; print $f->();`, []string{"stdout clock time"}},
		{"a method of a class of the program", "package Stamp;\nsub new { bless {}, shift }\nsub at { time }\npackage main;\nmy $s = Stamp->new;\nprint $s->at;", []string{"stdout clock time"}},
		{"sprintf", `my $s = sprintf("%d", time); print $s;`, []string{"stdout clock time"}},
		{"substitution's replacement", `my $s = "X"; $s =~ s/X/time/e; print $s;`, []string{"stdout clock time"}},
		{"substitution's fixed replacement", `my $s = "X"; $s =~ s/X/Y/; print $s;`, nil},
		{"captures of a match", `my $d = localtime; if ($d =~ /(\d+)/) { print $1 }`, []string{"stdout clock localtime"}},
		{"a constant", "use constant STAMP => time;\nprint STAMP;", []string{"stdout clock time"}},
		{"a here-document", "print <<EOF;\nbuilt at @{[ scalar localtime ]}\nEOF\n", []string{"stdout clock localtime"}},
		{"a fixed here-document", "print <<'EOF';\nbuilt at @{[ scalar localtime ]}\nEOF\n", nil},
		{"POD is not code", "=head1 NAME\n\nprint time;\n\n=cut\nprint 1;\n", nil},
		{"after __END__", "print 1;\n__END__\nprint time;\n", nil},
		{"a comment", "print 1; # print time\n", nil},
		{"qw", `my @w = qw(a b c); print "@w\n";`, nil},
		{"quote-like with braces", `my $s = qq{time is {nested} $$}; print $s;`, []string{"stdout pid $$"}},
		{"a string of a pattern", `my $re = qr/x/; print "ok" if "x" =~ $re;`, nil},
		{"statement modifiers", `print time for 1..2;`, []string{"stdout clock time"}},
		{"unless", `print time unless $ENV{QUIET};`, []string{"stdout clock time"}},
		{"the topic in a loop", `for (1, time) { print }`, []string{"stdout clock time"}},
		{"map", `print map { $_ * 2 } (1, time);`, []string{"stdout clock time"}},
		{"grep keeps", `print grep { $_ > 0 } (1, rand);`, []string{"stdout random rand"}},
		{"join", `print join(",", 1, 2, time);`, []string{"stdout clock time"}},
		{"a list in scalar context", `my $x = (time, 1); print $x;`, nil},
		{"ternary", `my $x = @ARGV ? time : 0; print $x;`, []string{"stdout clock time"}},
		{"or", `my $x = $ENV{STAMP} || time; print $x;`, []string{"stdout clock time"}},
		{"environment set for a command", `$ENV{TZ} = "UTC"; system("date -d @0");`, nil},
		{"a command given no environment", `system("date -d @0");`, []string{"stdout timezone date"}},
		{"eval of a string", `eval "print time";`, []string{"stdout clock time"}},
		{"eval of a block", `eval { print time };`, []string{"stdout clock time"}},
		{"-n style code reads input", `chomp; my @f = split /,/; print "$f[0]\n";`, nil},
		{"-p style code prints the topic", `s/\s+$//;`, nil},
		{"ranges and numbers", `for my $i (0..9) { printf "%02d\n", $i * 1.5e3 }`, nil},
		{"push and shift", `my @q; push @q, time; my $x = shift @q; print $x;`, []string{"stdout clock time"}},

		// Syntax met in real modules.
		{"a typeglob", "*out = \\*STDOUT;\nprint {*STDOUT} time;", []string{"stdout clock time"}},
		{"a glob's slot", `my $io = *STDOUT{IO}; print time;`, []string{"stdout clock time"}},
		{"a lowercase label", "loop: for my $i (1) { print time; next loop }", []string{"stdout clock time"}},
		{"require with a modifier", "require File::Basename if @ARGV;\nprint 1;", nil},
		{"qr", `my $re = qr{(\d+)}x; print "ok" if "1" =~ $re;`, nil},
		{"map over a hash after a block", `my %h = (a => 1); print join(",", map { "$_" } %h);`, []string{"stdout hashseed %h"}},
		{"&& after a constant", "use constant DEBUG => 0;\nprint time if DEBUG && 1;", []string{"stdout clock time"}},
		{"an assignment in a ternary", `my $x; my $y = @ARGV ? $x = time : 0; print $y;`, []string{"stdout clock time"}},
		{"a hash slice of a reference", `my $h = {}; @$h{qw(a b)} = (time, 1); print $h->{a};`, []string{"stdout clock time"}},
		{"a comma as delimiter", `print "x" if "a" =~ m,^a,; print time;`, []string{"stdout clock time"}},
		{"local of an element", `local ($ENV{TZ}) = 'UTC'; print scalar localtime;`, []string{"stdout clock localtime"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := []string{}
			if strings.Contains(tt.name, "fixed hash seed") {
				env = append(env, "PERL_HASH_SEED=0")
			}
			if strings.Contains(tt.name, "SOURCE_DATE_EPOCH") {
				env = append(env, "SOURCE_DATE_EPOCH=1000000000")
			}
			o := run(t, code.Program{Text: tt.prog, Site: effect.Site{File: "gen/BUILD", Line: 1}, Env: env, Args: []code.Arg{{Text: "x", Known: true}, {Text: "$(date)"}}}, nil)
			if len(o.Unread) > 0 {
				t.Errorf("unread: %q", o.Unread)
			}
			if got := codetest.Reaches(o); !slices.Equal(got, tt.want) {
				t.Errorf("%s\n got %q\nwant %q", tt.prog, got, tt.want)
			}
		})
	}
}

func TestUsesNothing(t *testing.T) {
	if got := (perl.Reader{}).Uses(`print time;`, spec.Builtin()); len(got) != 0 {
		t.Errorf("Uses = %q, want nothing", got)
	}
}

// TestSites: each value is placed where it is produced: the program's
// file and line, the line of inline code where it is written, a module's
// own file.
func TestSites(t *testing.T) {
	prog := "use strict;\nmy $x = 1;\nprint time, \"\\n\";\n"
	o := run(t, code.Program{Text: prog, File: "tools/stamp.pl", Site: effect.Site{File: "tools/stamp.pl", Line: 1}}, nil)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "tools/stamp.pl", Line: 3}) || o.Stdout[0].Because == "" {
		t.Errorf("in a file: %+v, want time at tools/stamp.pl:3 with a reason", o.Stdout)
	}
	o = run(t, code.Program{Text: prog, Site: effect.Site{File: "gen/BUILD", Line: 10}}, nil)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "gen/BUILD", Line: 12}) {
		t.Errorf("inline: %+v, want time at gen/BUILD:12", o.Stdout)
	}
	ws := codetest.Files{"tools/lib/Stamp.pm": "package Stamp;\nuse Exporter 'import';\nour @EXPORT = ('stamp');\n\nsub stamp {\n  return scalar localtime;\n}\n1;\n"}
	o = run(t, code.Program{Text: "use lib 'tools/lib';\nuse Stamp;\nprint stamp();\n", File: "tools/gen.pl", Site: effect.Site{File: "tools/gen.pl", Line: 1}}, ws)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "tools/lib/Stamp.pm", Line: 6}) || o.Stdout[0].Text != "localtime" {
		t.Errorf("in a module: %+v (unread %q), want localtime at tools/lib/Stamp.pm:6", o.Stdout, o.Unread)
	}
}

// TestModules: a module the program uses is known to the library, read
// from the workspace, or said to be unread.
func TestModules(t *testing.T) {
	ws := codetest.Files{
		"tools/Fixed.pm":     "package Fixed;\nsub now { return 0 }\n1;\n",
		"tools/lib/Clock.pm": "package Clock;\nsub now { time }\n1;\n",
		"tools/helpers.pl":   "sub when { return time }\n1;\n",
		"tools/Broken.pm":    "package Broken;\nsub {{{\n",
	}
	tests := []struct {
		name, prog string
		want       []string
		unread     string
	}{
		{"a module beside the program", "use Fixed;\nprint Fixed::now();", nil, ""},
		{"a module in its lib directory", "use Clock;\nprint Clock::now();", []string{"stdout clock time"}, ""},
		{"an exported function", "use Clock;\nprint now();", []string{"stdout clock time"}, ""},
		{"require of a file", "require 'tools/helpers.pl';\nprint when();", []string{"stdout clock time"}, ""},
		{"a module of the library", "use File::Basename;\nprint basename($0);", nil, ""},
		{"a pragma", "use strict;\nuse warnings;\nprint 1;", nil, ""},
		{"a module nobody knows", "use Acme::Unknown;\nprint 1;", nil, "use Acme::Unknown: a module Ahab knows nothing of"},
		{"a module that does not parse", "use Broken;\nprint 1;", nil, "does not parse"},
		{"require of a file named at run time", "require $ARGV[1];", nil, "requires a file named while it runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, code.Program{Text: tt.prog, File: "tools/gen.pl", Site: effect.Site{File: "tools/gen.pl", Line: 1}, Args: []code.Arg{{Text: "a", Known: true}, {Text: "$x"}}}, ws)
			if got := codetest.Reaches(o); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			switch {
			case tt.unread == "" && len(o.Unread) > 0:
				t.Errorf("unread %q, want none", o.Unread)
			case tt.unread != "" && !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, tt.unread) }):
				t.Errorf("unread %q, want one containing %q", o.Unread, tt.unread)
			}
		})
	}
	// perl -M loads a module before the program, as use does.
	for _, tt := range []struct {
		name, module, prog string
		want               []string
	}{
		{"-M of the library", "Cwd", `print getcwd(), "\n";`, []string{"stdout pwd getcwd()"}},
		{"-M with what it imports", "POSIX=strftime", `print strftime("%Y", localtime);`, []string{"stdout clock localtime"}},
		{"-M of the workspace", "Clock", `print now();`, []string{"stdout clock time"}},
		{"-M of a module that prints nothing varying", "Fixed", `print now();`, nil},
		{"-M- unloads", "-strict", `print getcwd();`, nil},
		{"without -M the short name is nobody's", "", `print getcwd();`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := code.Program{Text: tt.prog, File: "tools/gen.pl", Site: effect.Site{File: "tools/gen.pl", Line: 1}}
			if tt.module != "" {
				p.Imports = []code.Arg{{Text: tt.module, Known: true}}
			}
			if got := codetest.Reaches(run(t, p, ws)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	o := run(t, code.Program{Text: "use Clock;\nprint 1;", Site: effect.Site{File: "gen/BUILD", Line: 1}}, nil)
	if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, "the workspace is not known") }) {
		t.Errorf("with no workspace: unread %q, want it said", o.Unread)
	}
}

// TestUnread: what cannot be followed is said, not guessed.
func TestUnread(t *testing.T) {
	tests := []struct {
		name, prog, want string
	}{
		{"syntax error", "print (;", "perl: line 1:"},
		{"unterminated string", "print \"abc;\n", "has no end"},
		{"unterminated here-document", "print <<EOF;\nabc\n", "no terminator"},
		{"a command computed at run time", "my $c = $ARGV[1]; print `$c`;", "computed while it runs"},
		{"eval of a computed string", "eval $ARGV[1];", "evaluates a string computed while it runs"},
		{"deep nesting", "my $x = " + strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500) + ";", "nested deeper than"},
		{"deep blocks", strings.Repeat("{", 300) + strings.Repeat("}", 300), "nested deeper than"},
		{"too big", "print 1;\n" + strings.Repeat("#", 2<<20), "more than the"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, code.Program{Text: tt.prog, Site: effect.Site{File: "gen/BUILD", Line: 1}, Args: []code.Arg{{Text: "a", Known: true}, {Text: "$x"}}}, nil)
			if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, tt.want) }) {
				t.Errorf("unread %q, want one containing %q", o.Unread, tt.want)
			}
		})
	}
}

func TestWorkIsBounded(t *testing.T) {
	// Nested loops run twice each: 2^40 iterations if nothing bounded them.
	prog := strings.Repeat("for my $i (1..9) { ", 40) + "print time;" + strings.Repeat(" }", 40)
	o := run(t, code.Program{Text: prog}, nil)
	if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, "stopped after") }) {
		t.Errorf("unread %q, want the work bound", o.Unread)
	}
}
