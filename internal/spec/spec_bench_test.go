package spec

import (
	"testing"

	"github.com/ahab-go/ahab/internal/program"
)

// builtinInvocations are command lines as the repro check sees them
// (expanded, argv[0] first), shaped like gengraph's dumps.
var builtinInvocations = [][]string{
	{"bazel-out/k8-opt-exec-ST-d57f47055a04/bin/external/rules_rust+/util/process_wrapper/process_wrapper",
		"--subst", "pwd=${pwd}", "--",
		"external/rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools/rust_toolchain/bin/rustc",
		"src/area_1/pkg_3/m0.rs", "--crate-name=rs_9", "--crate-type=rlib", "--error-format=human",
		"--codegen=metadata=-123", "--codegen=extra-filename=-123", "--out-dir=bazel-out/k8-opt/bin/src/area_1/pkg_3",
		"--codegen=opt-level=3", "--codegen=debuginfo=0", "--remap-path-prefix=${pwd}=.", "--emit=dep-info,link",
		"--target=x86_64-unknown-linux-gnu", "--edition=2021",
		"--sysroot=external/rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools"},
	{"external/toolchains_llvm++llvm+llvm_toolchain/bin/cc_wrapper.sh", "--target=x86_64-unknown-linux-gnu",
		"-U_FORTIFY_SOURCE", "-fstack-protector", "-Wall", "-g0", "-O2", "-DNDEBUG", "-std=c++17", "-MD", "-MF",
		"bazel-out/k8-opt/bin/src/a/_objs/lib/f.pic.d", "-frandom-seed=bazel-out/k8-opt/bin/src/a/_objs/lib/f.pic.o",
		"-fPIC", "-iquote", ".", "-iquote", "bazel-out/k8-opt/bin", "-isystem", "external/zlib+",
		"-no-canonical-prefixes", "-Wno-builtin-macro-redefined", "-D__DATE__=\"redacted\"",
		"-D__TIMESTAMP__=\"redacted\"", "-D__TIME__=\"redacted\"",
		"-fdebug-prefix-map=external/toolchains_llvm++llvm+llvm_toolchain_llvm/=__bazel_toolchain_llvm_repo__/",
		"-c", "src/a/f.cc", "-o", "bazel-out/k8-opt/bin/src/a/_objs/lib/f.pic.o"},
	{"external/rules_cc++cc_configure_extension+local_config_cc/cc_wrapper.sh", "-c", "src/a/f.cc", "-o", "f.o"},
	{"bazel-out/k8-opt-exec-ST-d57f47055a04/bin/external/rules_pkg+/pkg/private/tar/build_tar",
		"--output=bazel-out/k8-opt/bin/src/a/layer.tar.gz", "--mode=0755", "--mtime=portable", "--compression=gz"},
	{"/bin/bash", "-c", "source external/bazel_tools/tools/genrule/genrule-setup.sh; tr a b < in > out"},
}

// BenchmarkResolve resolves and assesses realistic invocations against the
// built-in library, as the repro check does for every action.
func BenchmarkResolve(b *testing.B) {
	lib := Builtin()
	type call struct {
		id   program.ID
		args []string
	}
	calls := make([]call, len(builtinInvocations))
	bytes := 0
	for i, inv := range builtinInvocations {
		calls[i] = call{program.Of(inv[0]), inv[1:]}
		for _, a := range inv {
			bytes += len(a)
		}
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range calls {
			r := lib.Resolve(c.id, c.args)
			if r.Spec != nil {
				r.Spec.Assess(r.Args)
			}
		}
	}
}

// BenchmarkResolveArgv resolves the same realistic invocations as
// BenchmarkResolve, through ResolveArgv's memo of programs by argv[0]
// (memo) and without it, as Resolve does on every call (each).
func BenchmarkResolveArgv(b *testing.B) {
	lib := Builtin()
	of := program.OfFor(lib.Mode())
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, argv := range builtinInvocations {
				if r := lib.ResolveArgv(argv); r.Program.Path == "" {
					b.Fatalf("%s resolved to nothing", argv[0])
				}
			}
		}
	})
	b.Run("each", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, argv := range builtinInvocations {
				if r := lib.Resolve(of(argv[0]), argv[1:]); r.Program.Path == "" {
					b.Fatalf("%s resolved to nothing", argv[0])
				}
			}
		}
	})
}
