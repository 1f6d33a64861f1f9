:genrule //byhand:gcc_absolute_file*Vk8-fastbuildk8"@f5527a63a4773d9b4b1610a7539d7f704d66ef0ec083a237f84c700208babeedB
byhandBwhere.c
BexternalBbazel_toolsBtoolsBgenruleBgenrule-setup.sh
"B	bazel-outBk8-fastbuildB	
binB	byhand
Bwhere_absolute.o	
˜@fc30e7b71b6e0fc440311d0083b60c47de7c5e3e0b050a1d681135c18b044a3f"Genrule(2	/bin/bash2-c2ésource external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -c "$PWD/byhand/where.c" -o bazel-out/k8-fastbuild/bin/byhand/where_absolute.oBJh//byhand:gcc_build_timeB	stampBbuild_time.c
"Bbuild_time.o	
@23eb27436ee6c21815ead26154a77d1c3dd50108e3c169acbfeb1e452a30d46e"Genrule(2	/bin/bash2-c2ásource external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -c stamp/build_time.c -o bazel-out/k8-fastbuild/bin/byhand/build_time.oBJh//byhand:gcc_debugBunit.c
"Bunit_debug.o	
Ó@47d933c6c058964bbbbb165d03db3efd9abaaae81b85dede515dbf3151063639"Genrule(2	/bin/bash2-c2Ösource external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -g -c byhand/unit.c -o bazel-out/k8-fastbuild/bin/byhand/unit_debug.oBJh#//byhand:gcc_debug_prefix_map"Bunit_debug_prefix_map.o	
ì@c39ca88eb7ea47529d1056e8ae5edaa847d4c9a908c7cd8bbc6e1c8d1633e232"Genrule(2	/bin/bash2-c2™source external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -g -fdebug-prefix-map=$PWD=. -c byhand/unit.c -o bazel-out/k8-fastbuild/bin/byhand/unit_debug_prefix_map.oBJh"//byhand:gcc_file_prefix_map"Bwhere_file_prefix_map.o	
	ö@09d1f722eee20a5c40df472ba90363c8ba1f9998798f04e13a53940d80d2ec6e"Genrule(2	/bin/bash2-c2±source external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -g -ffile-prefix-map=$PWD=. -c "$PWD/byhand/where.c" -o bazel-out/k8-fastbuild/bin/byhand/where_file_prefix_map.oBJ	h	//byhand:gcc_plain"Bunit_plain.o	

Î@bdcee27428ba5d790f835356c61ce92a0ebafa45d509b349961fda0131204b35"Genrule(2	/bin/bash2-c2Çsource external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -c byhand/unit.c -o bazel-out/k8-fastbuild/bin/byhand/unit_plain.oBJ
h
 //byhand:gcc_relative_file"Bwhere_relative.o	
@4a8ecb33bd947964c88be6bd1a1863ee9dfbaf7fbaad63cf38fcacb2f53cbeae"Genrule(2	/bin/bash2-c2ásource external/bazel_tools/tools/genrule/genrule-setup.sh; gcc -c byhand/where.c -o bazel-out/k8-fastbuild/bin/byhand/where_relative.oBJh:
cc_library//debug:debugB	debugBdebug.h
"BinternalB
_middlemenB@:_S_Sdebug_Cdebug-BazelCppSemantics_build_arch_k8-fastbuild
Y@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJhBk8-opt-exec-2B5CBBC6BinternalB
_middlemenB1+external_Slocal_Uconfig_Ucc_Ccompiler_Udeps
Bdebug.cc
B	!cppB grep-includes.sh!
 "
"	
B%debug
B$_objs%B#debug$B"debug.pic.o#
"B&debug.pic.d#
&î@b69185f8653a4ecedefa8d785d187472675b29d92bc37e1f8c3f7f0ae41f7e50"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF28bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.d2F-frandom-seed=bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-g2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2debug/debug.cc2-o28bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.oB	JPhB'libdebug.a-2.params%
'V@e1bdbc54c9ff9972dd43cb8a67d6c27cf5c398fc54cb2e06ebbef17e17b46282"	FileWrite(Jh"B(
libdebug.a%
(Æ@fe54109d324a191baa3a9301b9f5369731fd25188580f55a74381e778bc36a3b"CppLink(2/usr/bin/ar2rcsD2+bazel-out/k8-fastbuild/bin/debug/libdebug.a28bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.o25@bazel-out/k8-fastbuild/bin/debug/libdebug.a-2.paramsBJb£
4bazel-out/k8-fastbuild/bin/debug/libdebug.a-2.paramsrcsD+bazel-out/k8-fastbuild/bin/debug/libdebug.a8bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.ohB)libdebug.so-2.params%
)V@ba5ec3641fbbcd3bf2f2bc62db6d4054c3c7aed7540b5ce9fcc6356a83f01e31"	FileWrite(JhB*build_interface_so!
*B+link_dynamic_library.sh!
+""	B,libdebug.so%
,ô@2a9b4eb90e90c8eb7c7987f707a1689f94350fa80c14f2b9767f968d155102ba"CppLink(2/usr/bin/gcc2-shared2-o2,bazel-out/k8-fastbuild/bin/debug/libdebug.so2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes28bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.o2-lstdc++2-lm26@bazel-out/k8-fastbuild/bin/debug/libdebug.so-2.paramsBJbò
5bazel-out/k8-fastbuild/bin/debug/libdebug.so-2.params-shared-o,bazel-out/k8-fastbuild/bin/debug/libdebug.so-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codes8bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.o-lstdc++-lmh"B.	_solib_k8
B-libdebug_Slibdebug.so.
-\@46eb193e3f3b753a19043749ea80cfaa8bab651bfee7eec54201320f6a248dea"SolibSymlink(BJh:	cc_binary	//debug:debug_main"BF/@_S_Sdebug_Cdebug_Umain-BazelCppSemantics_build_arch_k8-fastbuild
/Y	@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJhB0debug_main.cc
0""B2
debug_main$B1debug_main.pic.o2
1B3debug_main.pic.d2
3ê	@76f05e184ffa7273944bd64b9b6fc2a3bcb0bf43f78184c3acc8200380ea35ce"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF2Bbazel-out/k8-fastbuild/bin/debug/_objs/debug_main/debug_main.pic.d2P-frandom-seed=bazel-out/k8-fastbuild/bin/debug/_objs/debug_main/debug_main.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-iquote2external/bazel_tools2-iquote2/bazel-out/k8-fastbuild/bin/external/bazel_tools2-g2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2debug/debug_main.cc2-o2Bbazel-out/k8-fastbuild/bin/debug/_objs/debug_main/debug_main.pic.oBJPhB4debug_main-2.params%
4V	@679ba673619a660c06e83b025e5e3b4bb64a9b51227b87d3e3c72aa3f16f3161"	FileWrite(Jh""
B5
debug_main%
5À	@c6a6e791a35986f7b39934d721450683265368b5130a2a67cf9ddb5e4f4fe1bc"CppLink(2/usr/bin/gcc2-o2+bazel-out/k8-fastbuild/bin/debug/debug_main2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes2Bbazel-out/k8-fastbuild/bin/debug/_objs/debug_main/debug_main.pic.o2-Wl,--start-lib28bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.o2-Wl,--end-lib2-lstdc++2-lm25@bazel-out/k8-fastbuild/bin/debug/debug_main-2.paramsBJbÒ
4bazel-out/k8-fastbuild/bin/debug/debug_main-2.params-o+bazel-out/k8-fastbuild/bin/debug/debug_main-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codesBbazel-out/k8-fastbuild/bin/debug/_objs/debug_main/debug_main.pic.o-Wl,--start-lib8bazel-out/k8-fastbuild/bin/debug/_objs/debug/debug.pic.o-Wl,--end-lib-lstdc++-lmhB(6"external_Slocal_Uconfig_Ucc_Cempty
 6" B7debug_main.stripped%
!7Û	@066c84b8687d393d248cf5f1b92ce0156c9f4064b56b29ce948bab1c5fbf0d6d"CcStrip(2/usr/bin/strip2-S2-p2-o24bazel-out/k8-fastbuild/bin/debug/debug_main.stripped2-R2.gnu.switches.text.quote_paths2-R2 .gnu.switches.text.bracket_paths2-R2.gnu.switches.text.system_paths2-R2.gnu.switches.text.cpp_defines2-R2.gnu.switches.text.cpp_includes2-R2.gnu.switches.text.cl_args2-R2.gnu.switches.text.lipo_info2-R2.gnu.switches.text.annotation2+bazel-out/k8-fastbuild/bin/debug/debug_mainBJ!h!B8debug_main.dwp%
"8V	@8bfa366824070092e016c0d24cfc35cb391dad36247df16128baeaa98d05a397"	FileWrite(J"h"B"9debug_main.runfiles_manifest%
#9b	@f9435d93e6e3cf3986f0beadc325b4c4d1a989b98c223b107462b238030dd998"SourceSymlinkManifest(J#h#"#B;debug_main.runfiles%B:MANIFEST;
$:[	@eff29a61df8a2b50c0bcc3c26ab8b297123a0d4b479a087e285e86aa3d37cac0"SymlinkTree(BJ$h$"$B!<debug_Sdebug_Umain-runfiles
%<Y	@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJ%h%
//lib:greetB>libB=greet.h>
&="&B>?8_S_Slib_Cgreet-BazelCppSemantics_build_arch_k8-fastbuild
'?Y
@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJ'h'B@greet.cc>
(@"("'B	Dlib
BC_objsDBBgreetCBAgreet.pic.oB
)ABEgreet.pic.dB
*Eà
@5f0bbd6fb26c237d35208d8eb1a1fcb1cae9239cca3fd17f24c719ae9a7ab08d"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF26bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.d2D-frandom-seed=bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2lib/greet.cc2-o26bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.oBJ)*Ph)BFlibgreet.a-2.paramsD
+FV
@63c0c9fd48053b90559f7ee8aa26c4a3a81c5bb165d53eda8e5f1a0abf7bebe5"	FileWrite(J+h+")+BG
libgreet.aD
,G¢
@386376cb4967a462fb1e985fd47cb13ca47c57615104a945570c2ba3f4bbc2ab"CppLink(2/usr/bin/ar2rcsD2)bazel-out/k8-fastbuild/bin/lib/libgreet.a26bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.o23@bazel-out/k8-fastbuild/bin/lib/libgreet.a-2.paramsBJ,bù
2bazel-out/k8-fastbuild/bin/lib/libgreet.a-2.paramsrcsD)bazel-out/k8-fastbuild/bin/lib/libgreet.a6bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.oh,BHlibgreet.so-2.paramsD
-HV
@c3cabe685937a0451cf42213b5ac743d8c6de975b326b37679b393c11e75c5d1"	FileWrite(J-h-"	)-BIlibgreet.soD
.Iç
@1939f016f07ae9c273848761beba8f1a25dd5cb0c6613948487b27d6e5878f4c"CppLink(2/usr/bin/gcc2-shared2-o2*bazel-out/k8-fastbuild/bin/lib/libgreet.so2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes26bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.o2-lstdc++2-lm24@bazel-out/k8-fastbuild/bin/lib/libgreet.so-2.paramsBJ.bí
3bazel-out/k8-fastbuild/bin/lib/libgreet.so-2.params-shared-o*bazel-out/k8-fastbuild/bin/lib/libgreet.so-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codes6bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.o-lstdc++-lmh.".BJliblib_Slibgreet.so.
/J\
@510ee8041a3c1a70d9f2ab98910866cc05c3e7a610827a26b3f03e8c88c1efe1"SolibSymlink(BJ/h///lib:hello"'B>K8_S_Slib_Chello-BazelCppSemantics_build_arch_k8-fastbuild
0KY@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJ0h0BLhello.cc>
1L"1"0BNhelloCBMhello.pic.oN
2MBOhello.pic.dN
3O·@92ec7d069247cacbbda356b80aedf898ee9c09e6211887becbd09efc41c89e87"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF26bazel-out/k8-fastbuild/bin/lib/_objs/hello/hello.pic.d2D-frandom-seed=bazel-out/k8-fastbuild/bin/lib/_objs/hello/hello.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-iquote2external/bazel_tools2-iquote2/bazel-out/k8-fastbuild/bin/external/bazel_tools2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2lib/hello.cc2-o26bazel-out/k8-fastbuild/bin/lib/_objs/hello/hello.pic.oBJ23Ph2BPhello-2.paramsD
4PV@baa7b4596dd8bbf135d70f02fe4322aa7039eb528d3e2cd26c09f8ee59125b68"	FileWrite(J4h4"!2)"
 !04BQhelloD
5Qì@495743e17a5150fefef08be179850e5943eef735ffad9ff08efbc773ed418557"CppLink(2/usr/bin/gcc2-o2$bazel-out/k8-fastbuild/bin/lib/hello2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes26bazel-out/k8-fastbuild/bin/lib/_objs/hello/hello.pic.o2-Wl,--start-lib26bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.o2-Wl,--end-lib2-lstdc++2-lm2.@bazel-out/k8-fastbuild/bin/lib/hello-2.paramsB J5b’
-bazel-out/k8-fastbuild/bin/lib/hello-2.params-o$bazel-out/k8-fastbuild/bin/lib/hello-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codes6bazel-out/k8-fastbuild/bin/lib/_objs/hello/hello.pic.o-Wl,--start-lib6bazel-out/k8-fastbuild/bin/lib/_objs/greet/greet.pic.o-Wl,--end-lib-lstdc++-lmh5"" 5BRhello.strippedD
6RÂ@9695fb96fe12016aa9f5bc2bc2a4cb9adbe38bfec751c15c23dc9edc784f1af5"CcStrip(2/usr/bin/strip2-S2-p2-o2-bazel-out/k8-fastbuild/bin/lib/hello.stripped2-R2.gnu.switches.text.quote_paths2-R2 .gnu.switches.text.bracket_paths2-R2.gnu.switches.text.system_paths2-R2.gnu.switches.text.cpp_defines2-R2.gnu.switches.text.cpp_includes2-R2.gnu.switches.text.cl_args2-R2.gnu.switches.text.lipo_info2-R2.gnu.switches.text.annotation2$bazel-out/k8-fastbuild/bin/lib/helloB"J6h6BS	hello.dwpD
7SV@8bfa366824070092e016c0d24cfc35cb391dad36247df16128baeaa98d05a397"	FileWrite(J7h7BThello.runfiles_manifestD
8Tb@73667ffb1aec8a064ce1c6f2e4e0be4ff7e54a6de0bdb5809e68a71c1e85267c"SourceSymlinkManifest(J8h8"#8BVhello.runfilesDBUMANIFESTV
9U[@fd4d3a5a0ded799e32f7ca355706c3bf476f4145d912c14187d5aaf2e02a09ee"SymlinkTree(B#J9h9"$59BWlib_Shello-runfiles
:WY@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(B$J:h://stamp:build_time"%B[stamp
BZ_objs[BY
build_timeZBXbuild_time.pic.oY
;XB\build_time.pic.dY
<\¶@7cdae0aad785ef6c09328fffb0445e9ca6f149335eacbee8215ddd8ea3af0622"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2-MD2-MF2Bbazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.d2P-frandom-seed=bazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2stamp/build_time.c2-o2Bbazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.oB%J;<Ph;B]libbuild_time.a-2.params[
=]V@6c8153df6eb032520f9327e7b17e3f32fef472074bec57e967617e4aa19393ef"	FileWrite(J=h="&;=B^libbuild_time.a[
>^÷@de5c5ae67f950e4f294778574eccbbcb11da2fc6787a280faae8bac256679acb"CppLink(2/usr/bin/ar2rcsD20bazel-out/k8-fastbuild/bin/stamp/libbuild_time.a2Bbazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.o2:@bazel-out/k8-fastbuild/bin/stamp/libbuild_time.a-2.paramsB&J>b∑
9bazel-out/k8-fastbuild/bin/stamp/libbuild_time.a-2.paramsrcsD0bazel-out/k8-fastbuild/bin/stamp/libbuild_time.aBbazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.oh>B_libbuild_time.so-2.params[
?_V@8a279393512509090cadc4be6123b55961e766eb06ae7241ca1ee9530702a877"	FileWrite(J?h?"	';?B`libbuild_time.so[
@`¡@d3ef19ce7353d1ddad98cd391cab932ad685950fd5f8509aa20b66043fab254c"CppLink(2/usr/bin/gcc2-shared2-o21bazel-out/k8-fastbuild/bin/stamp/libbuild_time.so2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes2Bbazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.o2-lstdc++2-lm2;@bazel-out/k8-fastbuild/bin/stamp/libbuild_time.so-2.paramsB'J@b¨
:bazel-out/k8-fastbuild/bin/stamp/libbuild_time.so-2.params-shared-o1bazel-out/k8-fastbuild/bin/stamp/libbuild_time.so-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codesBbazel-out/k8-fastbuild/bin/stamp/_objs/build_time/build_time.pic.o-lstdc++-lmh@"(@B!alibstamp_Slibbuild_Utime.so.
Aa\@3acbbe6a64d836adc8f7f315115e5b417eb73ea170a70a73fede58aa8bbbf4da"SolibSymlink(B(JAhA