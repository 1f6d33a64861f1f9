package gengraph

import (
	"math/rand/v2"
	"strconv"
)

const (
	configTarget = 1
	configExec   = 2
	execConfig   = "k8-opt-exec-ST-d57f47055a04"
	hostPlatform = "@@platforms//host:host"
	binDir       = "bazel-out/k8-opt/bin/"
	execBinDir   = "bazel-out/" + execConfig + "/bin/"
	llvmRepo     = "external/toolchains_llvm++llvm+llvm_toolchain/"
	localCCRepo  = "external/rules_cc++cc_configure_extension+local_config_cc/"
	rustRepo     = "external/rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools/"
	cratePrefix  = "rules_rust++crate+crates__"
	// chainDepth is how deep dep-set chains grow: header sets of C++
	// targets, rlib sets of Rust targets and the stamp chain.
	chainDepth = 24
	areas      = 64
	// targetsPerPackage share a package directory.
	targetsPerPackage = 3
)

const (
	userSentinel     = "ahab-sentinel-user-4f8a1c6b9d2e7350"
	hostnameSentinel = "ahab-sentinel-hostname-4f8a1c6b9d2e7350"
)

type fragment struct {
	label  string
	parent uint32
}

// The fixed part of the path fragment tree; fragment i has id i+1. The
// areas (src/area_N and bazel-out/k8-opt/bin/src/area_N) follow it.
var globalFragments = func() []fragment {
	f := []fragment{
		{"bazel-out", 0},           // 1
		{"k8-opt", 1},              // 2
		{"bin", 2},                 // 3
		{execConfig, 1},            // 4
		{"bin", 4},                 // 5
		{"stable-status.txt", 1},   // 6
		{"volatile-status.txt", 1}, // 7
		{"src", 0},                 // 8
		{"src", 3},                 // 9
		{"external", 0},            // 10
		{"external", 3},            // 11
		{"toolchains_llvm++llvm+llvm_toolchain", 10}, // 12
		{"bin", 12},           // 13
		{"cc_wrapper.sh", 13}, // 14
		{"clang", 13},         // 15
		{"llvm-ar", 13},       // 16
		{"ld.lld", 13},        // 17
		{"rules_cc++cc_configure_extension+local_config_cc", 10}, // 18
		{"cc_wrapper.sh", 18},   // 19
		{"external", 5},         // 20
		{"rules_rust+", 20},     // 21
		{"util", 21},            // 22
		{"process_wrapper", 22}, // 23
		{"process_wrapper", 23}, // 24
		{"rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools", 10}, // 25
		{"rust_toolchain", 25}, // 26
		{"bin", 26},            // 27
		{"rustc", 27},          // 28
	}
	for a := range areas {
		f = append(f, fragment{"area_" + strconv.Itoa(a), 8})
	}
	for a := range areas {
		f = append(f, fragment{"area_" + strconv.Itoa(a), 9})
	}
	return f
}()

const (
	fragSrc        = 8
	fragExternal   = 10
	fragBinExt     = 11
	fragAreasSrc   = 29
	fragAreasBin   = fragAreasSrc + areas
	firstFragment  = fragAreasBin + areas
	firstArtifact  = 10
	depSetCC       = 1
	depSetRust     = 2
	depSetStamp    = 3 // the top of the stamp chain
	firstDepSet    = depSetStamp + chainDepth
	statusStable   = 1
	statusVolatile = 2
)

type artifact struct{ id, fragment uint32 }

var globalArtifacts = []artifact{
	{statusStable, 6}, {statusVolatile, 7},
	{3, 14}, {4, 15}, {5, 16}, {6, 17}, {7, 19}, {8, 24}, {9, 28},
}

type depSet struct {
	id            uint32
	trans, direct []uint32
}

func globalDepSets() []depSet {
	d := []depSet{
		{id: depSetCC, direct: []uint32{3, 4, 5, 6, 7}},
		{id: depSetRust, direct: []uint32{8, 9}},
	}
	// The stamp chain: status files chainDepth dep sets below its top.
	for i := range chainDepth {
		id := uint32(depSetStamp + i)
		if i == chainDepth-1 {
			d = append(d, depSet{id: id, direct: []uint32{statusStable, statusVolatile}})
		} else {
			d = append(d, depSet{id: id, trans: []uint32{id + 1}})
		}
	}
	return d
}

type kind int

const (
	ccLibrary kind = iota
	ccBinary
	ccTest
	rustLibrary
	genrule
	pkgTar
	pkgZip
	fileGen
	kindCount
)

var ruleClassNames = [kindCount]string{"cc_library", "cc_binary", "cc_test", "rust_library", "genrule", "pkg_tar", "pkg_zip", "expand_template"}

// kindWeights (out of 100) shape the mix of a C++/Rust monorepo.
var kindWeights = [kindCount]int{38, 6, 8, 16, 16, 4, 3, 9}

type actKind int

const (
	actCompile actKind = iota
	actArchive
	actLink
	actTest
	actRustc
	actClippy
	actRustfmt
	actBuildScript
	actGenrule
	actTar
	actZip
	actFileWrite
	actTemplate
	actModuleMap
)

type actPlan struct {
	kind            actKind
	n               int // source index for compiles
	inputs, outputs []uint32
}

type newFragment struct {
	id     uint32
	label  string
	parent uint32
}

// plan is one target with everything it adds to the graph, built cheaply
// from (seed, index) in every pass; the arguments are only built in the
// actions pass.
type plan struct {
	t      int
	id     uint32
	kind   kind
	label  string
	name   string
	dir    string // package directory, relative to the execution root
	nsrc   int
	v      int  // variant, 0..999, picks the rarer shapes
	llvm   bool // C++: toolchains_llvm rather than the autoconfigured one
	crate  string
	hash   string
	srcDir uint32
	binDir uint32
	arts   []artifact
	frags  []newFragment
	sets   []depSet
	acts   []actPlan
	take   int
}

// cursor carries the id counters and chains from one target to the next.
type cursor struct {
	actions          int
	art, set, frag   uint32
	srcPkg, binPkg   uint32
	hdrChain, hdrLen uint32
	rlibChain, rlLen uint32
}

type generator struct {
	opts Options
	pcg  rand.PCG
	rng  *rand.Rand
	p    plan
	c    cursor
}

// eachTarget builds the plans of all targets in order and calls fn with
// each; every pass sees the same plans.
func (g *generator) eachTarget(fn func(*plan)) {
	if g.rng == nil {
		g.rng = rand.New(&g.pcg)
	}
	g.c = cursor{art: firstArtifact, set: firstDepSet, frag: firstFragment}
	for t := 0; g.c.actions < g.opts.Actions; t++ {
		g.plan(t)
		g.p.take = min(len(g.p.acts), g.opts.Actions-g.c.actions)
		g.c.actions += g.p.take
		fn(&g.p)
	}
}

func (g *generator) frag(label string, parent uint32) uint32 {
	id := g.c.frag
	g.c.frag++
	g.p.frags = append(g.p.frags, newFragment{id, label, parent})
	return id
}

func (g *generator) art(label string, dir uint32) uint32 {
	id := g.c.art
	g.c.art++
	g.p.arts = append(g.p.arts, artifact{id, g.frag(label, dir)})
	return id
}

func (g *generator) set(trans, direct []uint32) uint32 {
	id := g.c.set
	g.c.set++
	g.p.sets = append(g.p.sets, depSet{id, trans, direct})
	return id
}

func (g *generator) act(k actKind, n int, inputs, outputs []uint32) {
	g.p.acts = append(g.p.acts, actPlan{k, n, inputs, outputs})
}

func (g *generator) pickKind() kind {
	x := g.rng.IntN(100)
	for k, w := range kindWeights {
		if x < w {
			return kind(k)
		}
		x -= w
	}
	return fileGen
}

// plan builds target t into g.p.
func (g *generator) plan(t int) {
	g.pcg.Seed(g.opts.Seed, uint64(t))
	p := &g.p
	*p = plan{t: t, id: uint32(t) + 1, arts: p.arts[:0], frags: p.frags[:0], sets: p.sets[:0], acts: p.acts[:0]}
	p.kind = g.pickKind()
	p.v = g.rng.IntN(1000)
	p.hash = strconv.FormatUint(g.rng.Uint64()%10000000000, 10)
	ts := strconv.Itoa(t)
	if t%targetsPerPackage == 0 {
		area := uint32(t / targetsPerPackage % areas)
		pkg := "pkg_" + strconv.Itoa(t/targetsPerPackage)
		g.c.srcPkg = g.frag(pkg, fragAreasSrc+area)
		g.c.binPkg = g.frag(pkg, fragAreasBin+area)
	}
	p.dir = "src/area_" + strconv.Itoa(t/targetsPerPackage%areas) + "/pkg_" + strconv.Itoa(t/targetsPerPackage)
	p.srcDir, p.binDir = g.c.srcPkg, g.c.binPkg
	switch p.kind {
	case ccLibrary, ccBinary, ccTest:
		p.name = [...]string{"lib", "bin", "test"}[p.kind] + "_" + ts
		p.llvm = g.rng.IntN(3) != 0
		if p.kind == ccLibrary {
			p.nsrc = 1 + g.rng.IntN(5)
		} else {
			p.nsrc = 1 + g.rng.IntN(2)
		}
		srcs := make([]uint32, p.nsrc)
		for j := range srcs {
			srcs[j] = g.art("f"+ts+"_"+strconv.Itoa(j)+".cc", p.srcDir)
		}
		hdrs := []uint32{g.art(p.name+".h", p.srcDir), g.art(p.name+"_impl.h", p.srcDir)}
		trans := []uint32{depSetCC}
		if g.c.hdrLen > 0 {
			trans = append(trans, g.c.hdrChain)
		}
		h := g.set(trans, hdrs)
		g.c.hdrChain, g.c.hdrLen = h, (g.c.hdrLen+1)%chainDepth
		objsDir := g.frag(p.name, g.frag("_objs", p.binDir))
		objs := make([]uint32, p.nsrc)
		for j := range srcs {
			stem := "f" + ts + "_" + strconv.Itoa(j)
			objs[j] = g.art(stem+".pic.o", objsDir)
			dfile := g.art(stem+".pic.d", objsDir)
			g.act(actCompile, j, []uint32{g.set([]uint32{h}, srcs[j:j+1])}, []uint32{objs[j], dfile})
		}
		g.act(actModuleMap, 0, nil, []uint32{g.art(p.name+".cppmap", p.binDir)})
		if p.kind == ccLibrary {
			out := g.art("lib"+p.name+".a", p.binDir)
			g.act(actArchive, 0, []uint32{g.set(nil, objs), depSetCC}, []uint32{out})
			break
		}
		out := g.art(p.name, p.binDir)
		g.act(actLink, 0, []uint32{g.set([]uint32{h}, objs), depSetCC}, []uint32{out})
		if p.kind == ccTest {
			log := g.art(p.name+".test.log", p.binDir)
			g.act(actTest, 0, []uint32{g.set(nil, []uint32{out})}, []uint32{log})
		}
	case rustLibrary:
		external := g.rng.IntN(4) == 0
		p.nsrc = 1 + g.rng.IntN(4)
		if external {
			p.crate = "crate" + ts
			repo := cratePrefix + p.crate + "-1.0." + strconv.Itoa(p.v)
			p.label = "@@" + repo + "//:" + p.crate
			p.dir = "external/" + repo
			p.srcDir = g.frag(repo, fragExternal)
			p.binDir = g.frag(repo, fragBinExt)
		} else {
			p.crate = "rs_" + ts
		}
		p.name = p.crate
		srcs := make([]uint32, p.nsrc)
		for j := range srcs {
			srcs[j] = g.art("m"+strconv.Itoa(j)+".rs", p.srcDir)
		}
		trans := []uint32{depSetRust}
		if g.c.rlLen > 0 {
			trans = append(trans, g.c.rlibChain)
		}
		in := g.set(trans, srcs)
		if external {
			outDir := g.art("_bs.out_dir", p.binDir)
			g.act(actBuildScript, 0, []uint32{in}, []uint32{outDir})
		}
		rlib := g.art("lib"+p.crate+"-"+p.hash+".rlib", p.binDir)
		g.act(actRustc, 0, []uint32{in}, []uint32{rlib})
		g.c.rlibChain, g.c.rlLen = g.set([]uint32{in}, []uint32{rlib}), (g.c.rlLen+1)%chainDepth
		if !external && p.v%5 < 2 {
			g.act(actClippy, 0, []uint32{in}, []uint32{g.art(p.crate+".clippy.ok", p.binDir)})
		}
		if !external && p.v%3 == 0 {
			g.act(actRustfmt, 0, []uint32{in}, []uint32{g.art(p.crate+".rustfmt.ok", p.binDir)})
		}
	case genrule:
		p.name = "gen_" + ts
		in := g.set(nil, []uint32{g.art(p.name+".in", p.srcDir)})
		inputs := []uint32{in}
		if p.stamped() {
			inputs = append(inputs, depSetStamp)
		}
		g.act(actGenrule, 0, inputs, []uint32{g.art(p.name+".out", p.binDir)})
	case pkgTar, pkgZip:
		p.name = [...]string{pkgTar: "layer_", pkgZip: "bundle_"}[p.kind] + ts
		in := g.set(nil, []uint32{g.art(p.name+".manifest", p.binDir), g.art(p.name+"_data.txt", p.srcDir)})
		if p.kind == pkgTar {
			g.act(actTar, 0, []uint32{in}, []uint32{g.art(p.name+".tar.gz", p.binDir)})
		} else {
			g.act(actZip, 0, []uint32{in}, []uint32{g.art(p.name+".zip", p.binDir)})
		}
	case fileGen:
		p.name = "cfg_" + ts
		in := g.set(nil, []uint32{g.art(p.name+".tpl", p.srcDir)})
		g.act(actTemplate, 0, []uint32{in}, []uint32{g.art(p.name+".h", p.binDir)})
		g.act(actFileWrite, 0, nil, []uint32{g.art(p.name+".txt", p.binDir)})
	}
	if p.label == "" {
		p.label = "//" + p.dir + ":" + p.name
	}
}

// The rarer shapes of genrules, by variant; each is what Ahab looks for.
func (p *plan) stamped() bool    { return p.v%25 == 0 }  // reads stable-status.txt
func (p *plan) absolute() bool   { return p.v%40 == 1 }  // runs /usr/local/bin/protoc
func (p *plan) leaks() bool      { return p.v%97 == 2 }  // copies USER and HOSTNAME
func (p *plan) tagged() bool     { return p.v%13 == 3 }  // no-sandbox, requires-network, local
func (p *plan) userPath() bool   { return p.v%30 == 4 }  // inherits the user's PATH
func (p *plan) vendorIncl() bool { return p.v%50 == 5 }  // C++: -isystem /opt/vendor/include
func (p *plan) defineLeak() bool { return p.v%199 == 6 } // C++: -DBUILD_USER=<user>
func (p *plan) objs() int        { return p.nsrc }
func (p *plan) binPath() string  { return binDir + p.dir + "/" }
func (p *plan) objPath(j int) string {
	return binDir + p.dir + "/_objs/" + p.name + "/f" + strconv.Itoa(p.t) + "_" + strconv.Itoa(j) + ".pic.o"
}

var standardPath = kv{"PATH", "/bin:/usr/bin:/usr/local/bin"}

// buildAction fills m with action j of p.
func (g *generator) buildAction(p *plan, j int, m *actionMsg) {
	m.reset()
	ap := &p.acts[j]
	m.targetID = p.id
	m.configID = configTarget
	m.platform = hostPlatform
	m.key = actionKey(g.opts.Seed, p.t, j)
	m.inputs = append(m.inputs, ap.inputs...)
	m.outputs = append(m.outputs, ap.outputs...)
	switch ap.kind {
	case actCompile:
		m.mnemonic = "CppCompile"
		g.compile(p, ap.n, m)
	case actArchive:
		m.mnemonic = "CppArchive"
		params := p.binPath() + "lib" + p.name + ".a-2.params"
		m.args.add(llvmRepo, "bin/llvm-ar")
		m.args.add("@", params)
		pf := m.newParamFile(params)
		pf.lines.add("rcsD")
		pf.lines.add(p.binPath(), "lib", p.name, ".a")
		for i := range p.objs() {
			pf.lines.add(p.objPath(i))
		}
		m.env = append(m.env, standardPath, kv{"PWD", "/proc/self/cwd"})
	case actLink:
		m.mnemonic = "CppLink"
		g.link(p, m)
	case actTest:
		m.mnemonic = "TestRunner"
		m.args.add("external/bazel_tools/tools/test/test-setup.sh")
		m.args.add(p.dir, "/", p.name)
		m.env = append(m.env, kv{"TEST_SRCDIR", "bazel-out/k8-opt/bin/" + p.dir + "/" + p.name + ".runfiles"}, kv{"TEST_TARGET", p.label})
		m.execInfo = append(m.execInfo, kv{"supports-path-mapping", "1"})
	case actRustc, actClippy, actRustfmt, actBuildScript:
		g.rust(p, ap.kind, m)
	case actGenrule:
		m.mnemonic = "Genrule"
		g.genrule(p, m)
	case actTar:
		m.mnemonic = "PackageTar"
		params := p.binPath() + p.name + ".args"
		m.args.add(execBinDir, "external/rules_pkg+/pkg/private/tar/build_tar")
		m.args.add("@", params)
		pf := m.newParamFile(params)
		pf.lines.add("--output=", p.binPath(), p.name, ".tar.gz")
		pf.lines.add("--manifest=", p.binPath(), p.name, ".manifest")
		pf.lines.add("--mode=0755")
		pf.lines.add("--owner=0.0")
		pf.lines.add("--owner_name=root.root")
		pf.lines.add("--mtime=portable")
		pf.lines.add("--directory=/srv/", p.name)
		pf.lines.add("--compression=gz")
	case actZip:
		m.mnemonic = "PackageZip"
		m.args.add(execBinDir, "external/rules_pkg+/pkg/private/zip/build_zip")
		m.args.add("-o")
		m.args.add(p.binPath(), p.name, ".zip")
		m.args.add("-d")
		m.args.add("/var/www/", p.name)
		m.args.add("-t")
		m.args.add("315532800")
		m.args.add("-m")
		m.args.add("0644")
		m.args.add("--compression_type")
		m.args.add("deflated")
		m.args.add("--manifest")
		m.args.add(p.binPath(), p.name, ".manifest")
	case actFileWrite:
		m.mnemonic = "FileWrite"
	case actTemplate:
		m.mnemonic = "TemplateExpand"
	case actModuleMap:
		m.mnemonic = "CppModuleMap"
	}
}

// compile writes a CppCompile line of 60+ arguments.
func (g *generator) compile(p *plan, j int, m *actionMsg) {
	a := &m.args
	src := p.dir + "/f" + strconv.Itoa(p.t) + "_" + strconv.Itoa(j) + ".cc"
	obj := p.objPath(j)
	if p.llvm {
		a.add(llvmRepo, "bin/cc_wrapper.sh")
		a.add("--target=x86_64-unknown-linux-gnu")
		a.add("-U_FORTIFY_SOURCE")
		a.add("-fstack-protector")
		a.add("-fno-omit-frame-pointer")
		a.add("-fcolor-diagnostics")
		a.add("-Wall")
		a.add("-Wthread-safety")
		a.add("-Wself-assign")
		a.add("-stdlib=libc++")
	} else {
		a.add(localCCRepo, "cc_wrapper.sh")
		a.add("-U_FORTIFY_SOURCE")
		a.add("-fstack-protector")
		a.add("-Wall")
		a.add("-Wunused-but-set-parameter")
		a.add("-Wno-free-nonheap-object")
		a.add("-fno-omit-frame-pointer")
		a.add("-fno-canonical-system-headers")
		a.add("-Wno-builtin-macro-redefined")
	}
	a.add("-g0")
	a.add("-O2")
	a.add("-D_FORTIFY_SOURCE=1")
	a.add("-DNDEBUG")
	a.add("-ffunction-sections")
	a.add("-fdata-sections")
	a.add("-std=c++17")
	a.add("-MD")
	a.add("-MF")
	a.add(obj[:len(obj)-1], "d")
	a.add("-frandom-seed=", obj)
	a.add("-fPIC")
	a.add("-DABSL_MIN_LOG_LEVEL=1")
	a.add("-DBAZEL_CURRENT_REPOSITORY=\"\"")
	a.add("-iquote")
	a.add(".")
	a.add("-iquote")
	a.add("bazel-out/k8-opt/bin")
	for _, dep := range [...]string{"abseil-cpp+", "protobuf+", "zlib+"} {
		a.add("-iquote")
		a.add("external/", dep)
		a.add("-iquote")
		a.add("bazel-out/k8-opt/bin/external/", dep)
	}
	a.add("-isystem")
	a.add("external/protobuf+/src")
	a.add("-isystem")
	a.add("bazel-out/k8-opt/bin/external/protobuf+/src")
	a.add("-isystem")
	a.add("external/zlib+")
	if p.vendorIncl() {
		a.add("-isystem")
		a.add("/opt/vendor/include")
	}
	if p.defineLeak() {
		a.add("-DBUILD_USER=\"", userSentinel, "\"")
	}
	a.add("-Wno-deprecated-declarations")
	a.add("-Wno-sign-compare")
	a.add("-Wno-unused-parameter")
	a.add("-Wno-missing-field-initializers")
	a.add("-fno-exceptions")
	a.add("-Werror=return-type")
	a.add("-no-canonical-prefixes")
	a.add("-Wno-builtin-macro-redefined")
	a.add("-D__DATE__=\"redacted\"")
	a.add("-D__TIMESTAMP__=\"redacted\"")
	a.add("-D__TIME__=\"redacted\"")
	if p.llvm {
		a.add("-fdebug-prefix-map=external/toolchains_llvm++llvm+llvm_toolchain_llvm/=__bazel_toolchain_llvm_repo__/")
	}
	a.add("-c")
	a.add(src)
	a.add("-o")
	a.add(obj)
	m.env = append(m.env, standardPath, kv{"PWD", "/proc/self/cwd"})
	m.execInfo = append(m.execInfo, kv{"supports-path-mapping", "1"})
}

// link writes a CppLink through a -2.params file.
func (g *generator) link(p *plan, m *actionMsg) {
	out := p.binPath() + p.name
	params := out + "-2.params"
	if p.llvm {
		m.args.add(llvmRepo, "bin/cc_wrapper.sh")
	} else {
		m.args.add(localCCRepo, "cc_wrapper.sh")
	}
	m.args.add("@", params)
	l := &m.newParamFile(params).lines
	l.add("-o")
	l.add(out)
	l.add("-Wl,-S")
	for i := range p.objs() {
		l.add(p.objPath(i))
	}
	// The libraries of the targets below it, as a real link lists them.
	for k := 1; k <= 8 && p.t >= k; k++ {
		dep := p.t - k
		l.add("bazel-out/k8-opt/bin/src/area_", strconv.Itoa(dep/targetsPerPackage%areas), "/pkg_", strconv.Itoa(dep/targetsPerPackage), "/liblib_"+strconv.Itoa(dep)+".a")
	}
	if p.v%20 == 7 {
		l.add("-Wl,-rpath=/usr/local/lib/", p.name)
	}
	for _, f := range [...]string{"-fuse-ld=lld", "-Wl,-no-as-needed", "-Wl,-z,relro,-z,now", "-pass-exit-codes", "-lm", "-l:libc++.a", "-l:libc++abi.a", "-static-libgcc", "-Wl,--gc-sections", "-Wl,--build-id=md5", "-Wl,--hash-style=gnu", "-no-canonical-prefixes"} {
		l.add(f)
	}
	m.env = append(m.env, standardPath, kv{"PWD", "/proc/self/cwd"})
}

// rust writes the rules_rust actions, all through process_wrapper.
func (g *generator) rust(p *plan, k actKind, m *actionMsg) {
	a := &m.args
	a.add(execBinDir, "external/rules_rust+/util/process_wrapper/process_wrapper")
	out := p.binPath()
	switch k {
	case actBuildScript:
		m.mnemonic = "CargoBuildScriptRun"
		m.configID = configExec
		m.args.reset()
		a.add(execBinDir, "external/rules_rust+/cargo/cargo_build_script_runner/cargo_build_script_runner")
		a.add(execBinDir, p.dir, "/_bs_")
		a.add(p.dir)
		for _, f := range [...]string{"_bs.out_dir", "_bs.env", "_bs.flags", "_bs.linkflags", "_bs.link_search_paths", "_bs.depenv", "_bs.stdout", "_bs.stderr"} {
			a.add(out, f)
		}
		a.add("--")
		m.env = append(m.env,
			kv{"AR", "/usr/bin/ar"}, kv{"CARGO_CFG_TARGET_ARCH", "x86_64"}, kv{"CARGO_CFG_TARGET_OS", "linux"},
			kv{"CARGO_MANIFEST_DIR", "${pwd}/" + p.dir}, kv{"CARGO_PKG_NAME", p.crate}, kv{"CC", "/usr/bin/gcc"},
			kv{"HOST", "x86_64-unknown-linux-gnu"}, kv{"RUSTC", rustRepo + "rust_toolchain/bin/rustc"})
		return
	case actRustfmt:
		m.mnemonic = "Rustfmt"
		a.add("--touch-file")
		a.add(out, p.crate, ".rustfmt.ok")
		a.add("--")
		a.add("external/rules_rust++rust+rustfmt_nightly-2025-03-14__x86_64-unknown-linux-gnu_tools/bin/rustfmt")
		a.add("--config-path")
		a.add(".rustfmt.toml")
		a.add("--edition")
		a.add("2021")
		a.add("--check")
		for i := range p.nsrc {
			a.addNum(p.dir+"/m", uint64(i), ".rs")
		}
		return
	case actClippy:
		m.mnemonic = "Clippy"
		a.add("--touch-file")
		a.add(out, p.crate, ".clippy.ok")
	default:
		m.mnemonic = "Rustc"
	}
	a.add("--subst")
	a.add("pwd=${pwd}")
	a.add("--")
	params := out + "lib" + p.crate + "-" + p.hash + ".rlib-0.params"
	if k == actClippy {
		a.add(rustRepo, "rust_toolchain/bin/clippy-driver")
	} else {
		a.add(rustRepo, "rust_toolchain/bin/rustc")
	}
	a.add("@", params)
	l := &m.newParamFile(params).lines
	l.add(p.dir, "/m0.rs")
	l.add("--crate-name=", p.crate)
	l.add("--crate-type=rlib")
	l.add("--error-format=human")
	l.add("--codegen=metadata=-", p.hash)
	l.add("--codegen=extra-filename=-", p.hash)
	l.add("--out-dir=", out[:len(out)-1])
	l.add("--codegen=opt-level=3")
	l.add("--codegen=debuginfo=0")
	l.add("--codegen=strip=debuginfo")
	l.add("--remap-path-prefix=${pwd}=.")
	l.add("--emit=dep-info,link")
	l.add("--color=always")
	l.add("--target=x86_64-unknown-linux-gnu")
	l.add("-L")
	l.add(rustRepo, "lib/rustlib/x86_64-unknown-linux-gnu/lib")
	l.add("--edition=2021")
	for d := 1; d <= 3 && p.t >= d; d++ {
		dep := "dep" + strconv.Itoa(p.t-d)
		l.add("--extern=", dep, "=bazel-out/k8-opt/bin/external/", cratePrefix, dep, "/lib", dep, ".rlib")
		l.add("-Ldependency=bazel-out/k8-opt/bin/external/", cratePrefix, dep)
	}
	if k == actClippy {
		l.add("-Dwarnings")
	}
	l.add("--sysroot=", rustRepo[:len(rustRepo)-1])
	m.env = append(m.env,
		kv{"CARGO_CFG_TARGET_ARCH", "x86_64"}, kv{"CARGO_CFG_TARGET_OS", "linux"}, kv{"CARGO_CRATE_NAME", p.crate},
		kv{"CARGO_MANIFEST_DIR", "${pwd}/" + p.dir}, kv{"CARGO_PKG_NAME", p.crate}, kv{"CARGO_PKG_VERSION", "0.1.0"})
}

// genrule writes a Genrule under bash -c, in one of its rarer shapes.
func (g *generator) genrule(p *plan, m *actionMsg) {
	out := p.binPath() + p.name + ".out"
	in := p.dir + "/" + p.name + ".in"
	m.args.add("/bin/bash")
	m.args.add("-c")
	const setup = "source external/bazel_tools/tools/genrule/genrule-setup.sh; "
	switch {
	case p.stamped():
		m.args.add(setup, "sed -e \"s/@VERSION@/$(grep STABLE_GIT_COMMIT bazel-out/stable-status.txt | cut -d' ' -f2)/\" ", in, " > ", out)
	case p.absolute():
		m.args.add(setup, "/usr/local/bin/protoc --version > ", out, " && cat ", in, " >> ", out)
	case p.leaks():
		m.args.add(setup, "echo \"built by ", userSentinel, " on ", hostnameSentinel, "\" > ", out)
	default:
		m.args.add(setup, "tr '[:lower:]' '[:upper:]' < ", in, " > ", out)
	}
	if p.userPath() {
		m.env = append(m.env, kv{"PATH", "/home/" + userSentinel + "/.local/bin:/usr/local/bin:/usr/bin:/bin"})
	} else {
		m.env = append(m.env, standardPath)
	}
	if p.tagged() {
		tag := [...]string{"no-sandbox", "requires-network", "local"}[p.v%3]
		m.execInfo = append(m.execInfo, kv{tag, ""}, kv{"no-remote", ""})
	}
}

// actionKey is a 64-hex-digit key, as Bazel prints, derived from the seed
// and the action's place.
func actionKey(seed uint64, t, j int) string {
	var b [64]byte
	x := seed ^ uint64(t)<<20 ^ uint64(j)
	const hex = "0123456789abcdef"
	for i := 0; i < 64; i += 16 {
		x = splitmix(x)
		v := x
		for k := range 16 {
			b[i+k] = hex[v&15]
			v >>= 4
		}
	}
	return string(b[:])
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
