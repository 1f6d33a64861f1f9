package genlog

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// depWindow is how far back a library's dependencies reach.
const depWindow = 30

const (
	binDir    = "bazel-out/k8-fastbuild/bin/"
	genSetup  = "external/bazel_tools/tools/genrule/genrule-setup.sh"
	testSetup = "external/bazel_tools/tools/test/test-setup.sh"
	volatile  = "bazel-out/volatile-status.txt"
	stable    = "bazel-out/stable-status.txt"
)

// toolchain is what every compile and link reads besides its own files.
var toolchain = func() []fileSpec {
	var fs []fileSpec
	for _, p := range []string{
		"external/local_config_cc/builtin_include_directory_paths",
		"external/local_config_cc/cc_wrapper.sh",
		"external/bazel_tools/tools/cpp/grep-includes.sh",
		"external/local_config_cc/armeabi_cc_toolchain_config.bzl",
		"external/local_config_cc/cc_toolchain_config.bzl",
		"external/bazel_tools/tools/cpp/build_interface_so",
		"external/bazel_tools/tools/cpp/link_dynamic_library.sh",
		"external/local_config_cc/tools/cpp/empty.cc",
		"external/bazel_tools/tools/cpp/malloc.cc",
		"external/bazel_tools/tools/cpp/linux_cc_wrapper.sh.tpl",
		"external/local_config_cc/module.modulemap",
		"external/bazel_tools/tools/def_parser/no_op.bat",
	} {
		fs = append(fs, source(p))
	}
	return fs
}()

var archiveTools = []fileSpec{source("external/local_config_cc/ar_wrapper.sh"), source("external/bazel_tools/tools/cpp/build_interface_so")}

var compileFlags = []string{
	"/usr/bin/gcc", "-U_FORTIFY_SOURCE", "-fstack-protector", "-Wall", "-Wunused-but-set-parameter",
	"-Wno-free-nonheap-object", "-fno-omit-frame-pointer", "-std=c++17",
}

var compileTail = []string{
	"-fPIC", "-iquote", ".", "-iquote", "bazel-out/k8-fastbuild/bin", "-fno-canonical-system-headers",
	"-Wno-builtin-macro-redefined", `-D__DATE__="redacted"`, `-D__TIMESTAMP__="redacted"`, `-D__TIME__="redacted"`,
}

var ccEnv = [][2]string{{"PATH", "/usr/bin:/bin"}, {"PWD", "/proc/self/cwd"}}
var shellEnv = [][2]string{{"PATH", "/usr/bin:/bin"}}

// unit is what later libraries need of one: its public headers (sources),
// its generated header and its archive (outputs, changed or not).
type unit struct {
	headers []fileSpec
	gen     fileSpec
	archive fileSpec
}

type generator struct {
	opts  Options
	pair  bool
	units [depWindow + 1]unit
}

func newGenerator(opts Options, pair bool) *generator {
	return &generator{opts: opts, pair: pair}
}

// spawns yields every spawn, old and new, until the old build has
// opts.Spawns of them.
func (g *generator) spawns(yield func(*spawnSpec) bool) {
	n := 0
	for u := 0; n < g.opts.Spawns; u++ {
		for _, s := range g.unit(u) {
			// Bazel writes inputs sorted by path.
			slices.SortFunc(s.inputs, func(a, b fileSpec) int { return strings.Compare(a.path, b.path) })
			if s.inOld {
				if n == g.opts.Spawns {
					return
				}
				n++
			}
			if !yield(s) {
				return
			}
		}
	}
}

// DefaultPlant is how many libraries per mille get a planted divergence
// unless Options.Plant says otherwise.
const DefaultPlant = plantOnlyNew

// plant says what divergence a library of a pair gets, per mille of
// libraries (scaled by Options.Plant): a nondeterministic genrule, a
// changed source file, a changed compile flag, a changed genrule
// environment, a flaky test (or genrule, for a library without a test), an
// extra genrule only the old build ran, one only the new build ran. Every
// fiftieth library's binary is stamped with bazel-out/volatile-status.txt,
// which changes in every build.
const (
	plantNondeterministic = 2
	plantSource           = 4
	plantCommand          = 5
	plantEnvironment      = 6
	plantFlaky            = 8
	plantOnlyOld          = 10
	plantOnlyNew          = 12
)

// unit generates the spawns of library u. Its random draws are the same in
// single and pair mode, so that the old build of a pair is Write's log.
func (g *generator) unit(u int) []*spawnSpec {
	r := rand.New(rand.NewPCG(g.opts.Seed, uint64(u)))
	plant := r.IntN(1000)
	rate := g.opts.Plant
	if rate == 0 {
		rate = DefaultPlant
	}
	switch {
	case !g.pair || plant >= rate:
		plant = 1000
	default:
		// Spread the chosen libraries over the kinds of divergence.
		plant = plant * plantOnlyNew / rate
	}
	us := strconv.Itoa(u)
	pkg := "src/area_" + strconv.Itoa(u%64) + "/lib_" + us
	out := binDir + pkg + "/"
	label := func(name string) string {
		if !g.opts.Labels {
			return ""
		}
		return "//" + pkg + ":" + name
	}
	var spawns []*spawnSpec
	both := func(s *spawnSpec) *spawnSpec {
		s.inOld, s.inNew = true, true
		spawns = append(spawns, s)
		return s
	}

	// Dependencies: 2 to 8 of the libraries just before this one.
	var deps []int
	for range 2 + r.IntN(7) {
		if u == 0 {
			break
		}
		d := u - 1 - r.IntN(min(u, depWindow))
		if !slices.Contains(deps, d) {
			deps = append(deps, d)
		}
	}
	slices.Sort(deps)
	me := &g.units[u%len(g.units)]
	*me = unit{}

	// The genrule that generates the library's header.
	nondet := plant < plantNondeterministic
	envChanged := plant >= plantCommand && plant < plantEnvironment
	me.gen = output(out+"gen_"+us+".h", nondet || envChanged)
	me.gen.generated = true
	genArgs := []string{"/bin/bash", "-c", "source " + genSetup + "; tools/gen.sh " + pkg + "/gen_" + us + ".in > " + me.gen.path}
	gen := both(&spawnSpec{
		mnemonic: "Genrule", target: label("gen_" + us),
		args:   [2][]string{genArgs, genArgs},
		env:    [2][][2]string{shellEnv, shellEnv},
		inputs: []fileSpec{source(genSetup), source(pkg + "/gen_" + us + ".in")},
		outs:   []fileSpec{me.gen},
	})
	if envChanged {
		gen.env[1] = [][2]string{{"LANG", "fr_FR.UTF-8"}, {"PATH", "/usr/bin:/bin"}}
		gen.envChanged = true
	}
	flaky := plant >= plantEnvironment && plant < plantFlaky
	if flaky && u%20 != 19 {
		// No test to be flaky: the genrule fails once, its output the same.
		gen.exit[1] = 1
	}

	// Public headers.
	for _, h := range []string{"lib_" + us + ".h", "impl_" + us + ".h", "util.h"} {
		me.headers = append(me.headers, source(pkg+"/"+h))
	}

	// Compiles.
	nsrc := 1 + r.IntN(6)
	var objects []fileSpec
	for c := range nsrc {
		absorbs := r.IntN(3) == 0
		src := source(pkg + "/src_" + strconv.Itoa(c) + ".cc")
		s := &spawnSpec{mnemonic: "CppCompile", target: label("lib_" + us)}
		if c == 0 && plant >= plantNondeterministic && plant < plantSource {
			src.digest[1] = digest(src.path, 1)
			s.source = true
		}
		s.inputs = append(s.inputs, toolchain...)
		s.inputs = append(s.inputs, src)
		s.inputs = append(s.inputs, me.headers...)
		s.inputs = append(s.inputs, me.gen)
		for _, d := range deps {
			du := &g.units[d%len(g.units)]
			s.inputs = append(s.inputs, du.headers...)
			s.inputs = append(s.inputs, du.gen)
		}
		for _, f := range s.inputs {
			if f.generated && f.changed() {
				s.generated = true
			}
		}
		obj := out + "_objs/lib_" + us + "/src_" + strconv.Itoa(c)
		args := slices.Concat(compileFlags, []string{"-MD", "-MF", obj + ".d", "-frandom-seed=" + obj + ".o"}, compileTail,
			[]string{"-c", src.path, "-o", obj + ".o"})
		s.args = [2][]string{args, args}
		if c == 0 && plant >= plantSource && plant < plantCommand {
			s.args[1] = slices.Insert(slices.Clone(args), len(args)-4, "-DVARIANT=2")
			s.cmd = true
		}
		s.env = [2][][2]string{ccEnv, ccEnv}
		o := output(obj+".o", s.cmd || s.source || s.generated && !absorbs)
		o.generated = true
		s.outs = []fileSpec{output(obj+".d", s.cmd || s.source), o}
		objects = append(objects, o)
		both(s)
	}

	// The archive.
	me.archive = output(out+"liblib_"+us+".a", anyChanged(objects))
	me.archive.generated = true
	arArgs := append([]string{"external/local_config_cc/ar_wrapper.sh", "rcsD", me.archive.path}, paths(objects)...)
	both(&spawnSpec{
		mnemonic: "CppArchive", target: label("lib_" + us),
		args: [2][]string{arArgs, arArgs}, env: [2][][2]string{ccEnv, ccEnv},
		inputs: slices.Concat(archiveTools, objects), outs: []fileSpec{me.archive},
		generated: anyChanged(objects),
	})

	// A genrule only one build runs.
	if plant >= plantFlaky && plant < plantOnlyNew {
		extraArgs := []string{"/bin/bash", "-c", "echo extra > " + out + "extra_" + us + ".txt"}
		spawns = append(spawns, &spawnSpec{
			mnemonic: "Genrule", target: label("extra_" + us), inNew: plant >= plantOnlyOld, inOld: plant < plantOnlyOld,
			args:   [2][]string{extraArgs, extraArgs},
			env:    [2][][2]string{shellEnv, shellEnv},
			inputs: []fileSpec{source(genSetup)},
			outs:   []fileSpec{output(out+"extra_"+us+".txt", false)},
		})
	}

	// Every tenth library links a binary, every fiftieth stamped.
	if u%10 != 9 {
		return spawns
	}
	link := &spawnSpec{mnemonic: "CppLink", target: label("bin_" + us)}
	link.inputs = slices.Concat(toolchain, []fileSpec{me.archive})
	for _, d := range deps {
		link.inputs = append(link.inputs, g.units[d%len(g.units)].archive)
	}
	link.generated = anyChanged(link.inputs)
	if u%50 == 9 {
		st, vol := source(stable), source(volatile)
		if g.pair {
			vol.digest[1] = digest(volatile, 1)
		}
		link.inputs = append(link.inputs, st, vol)
		link.source = g.pair
	}
	bin := output(out+"bin_"+us, link.generated || link.source)
	bin.generated = true
	linkArgs := append([]string{"/usr/bin/gcc", "-o", bin.path, "-Wl,-S", "-fuse-ld=gold"}, paths(link.inputs[len(toolchain):])...)
	link.args = [2][]string{linkArgs, linkArgs}
	link.env = [2][][2]string{ccEnv, ccEnv}
	link.outs = []fileSpec{bin}
	both(link)

	// Every twentieth tests it.
	if u%20 == 19 {
		test := &spawnSpec{mnemonic: "TestRunner", target: label("bin_" + us + "_test")}
		test.inputs = []fileSpec{bin, source(testSetup)}
		test.generated = bin.changed()
		testArgs := []string{testSetup, bin.path}
		test.args = [2][]string{testArgs, testArgs}
		test.env = [2][][2]string{{{"TEST_TARGET", "//" + pkg + ":bin_" + us + "_test"}, {"TZ", "UTC"}}, nil}
		test.env[1] = test.env[0]
		if flaky {
			test.exit[1] = 1
		}
		logs := binDir[:len(binDir)-4] + "testlogs/" + pkg + "/bin_" + us + "_test/"
		test.outs = []fileSpec{output(logs+"test.log", test.generated || flaky), output(logs+"test.xml", test.generated || flaky)}
		both(test)
	}
	return spawns
}

func anyChanged(fs []fileSpec) bool {
	for _, f := range fs {
		if f.changed() {
			return true
		}
	}
	return false
}

func paths(fs []fileSpec) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.path
	}
	return out
}
