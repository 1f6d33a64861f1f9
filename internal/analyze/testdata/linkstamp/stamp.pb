:	cc_binary	//app:app*Vk8-fastbuildk8"@1e62f5397d5e3f107dd01b43035cdcc261196fd1909f2a62878450cb10f4b879B	bazel-outBk8-opt-exec-2B5CBBC6BinternalB
_middlemenB1+external_Slocal_Uconfig_Ucc_Ccompiler_Udeps
BappBmain.cc
BexternalBbazel_toolsB
toolsB		cpp
Bgrep-includes.sh	
"Bk8-fastbuildB	binB	appB_objsB	appB
main.pic.o
B
main.pic.d
×@76e606bd6f4b9671be3e586a0dda50074daef0b378921c6b6dfc4c2992d14546"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF23bazel-out/k8-fastbuild/bin/app/_objs/app/main.pic.d2A-frandom-seed=bazel-out/k8-fastbuild/bin/app/_objs/app/main.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-iquote2external/bazel_tools2-iquote2/bazel-out/k8-fastbuild/bin/external/bazel_tools2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2app/main.cc2-o23bazel-out/k8-fastbuild/bin/app/_objs/app/main.pic.oBJPhBapp-2.params
V@c998eb7b414f716bbe84fb3dddcd4319e44788f7b81ecb1238606843d36e81d9"	FileWrite(JhBincludeBbuild-info-nonvolatile.h
Bbuild-info-volatile.h
Bstamp.cc
	"		Bbuild_interface_so	

Blink_dynamic_library.sh	
"
"	"B	appBstamp.o
Û@45f8bd20d616051b47f4d84e23f0df49a49aa79fc32bb8f5bd1f9e51b1d94d18"CppLinkstampCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x26-DG3_BUILD_TARGET="bazel-out/k8-fastbuild/bin/app/app"2-DG3_TARGET_NAME="//app:app"2-DBUILD_COVERAGE_ENABLED=02-DGPLATFORM="local"2-include27bazel-out/k8-fastbuild/include/build-info-nonvolatile.h2-include24bazel-out/k8-fastbuild/include/build-info-volatile.h2-I.2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2app/stamp.cc2-o24bazel-out/k8-fastbuild/bin/app/_objs/app/app/stamp.oBJh"
B	app
’@4bfd32958acf49c414c85ab993c15cb5c8cf4bbbf364bd41ad0c2300dd7e1dbb"CppLink(2/usr/bin/gcc2-o2"bazel-out/k8-fastbuild/bin/app/app2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes23bazel-out/k8-fastbuild/bin/app/_objs/app/main.pic.o24bazel-out/k8-fastbuild/bin/app/_objs/app/app/stamp.o2-lstdc++2-lm2,@bazel-out/k8-fastbuild/bin/app/app-2.paramsBJhB("external_Slocal_Uconfig_Ucc_Cempty
"Bapp.stripped
á@f82123c649a3775c1b3bd55faacaf7b46ca8f3a7b49ecf4ba33716387bc8ea48"CcStrip(2/usr/bin/strip2-S2-p2-o2+bazel-out/k8-fastbuild/bin/app/app.stripped2-R2.gnu.switches.text.quote_paths2-R2 .gnu.switches.text.bracket_paths2-R2.gnu.switches.text.system_paths2-R2.gnu.switches.text.cpp_defines2-R2.gnu.switches.text.cpp_includes2-R2.gnu.switches.text.cl_args2-R2.gnu.switches.text.lipo_info2-R2.gnu.switches.text.annotation2"bazel-out/k8-fastbuild/bin/app/appBJhB app.dwp
 V@8bfa366824070092e016c0d24cfc35cb391dad36247df16128baeaa98d05a397"	FileWrite(JhB!app.runfiles_manifest
!b@8efe597ca5980e3d74163e6fdd35133a184c978ada491933a1382f925ed5ae16"SourceSymlinkManifest(Jh"B#app.runfilesB"MANIFEST#
"[@35e3d643a4aed410b0b707c11ee0bd6877772b0680b7485ad98beeb95d8f176b"SymlinkTree(BJh"	B&internalB%
_middlemen&B$app_Sapp-runfiles%
$Y@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(B	Jh