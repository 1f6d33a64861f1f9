:genrule//jvm:jar_dated*Vk8-fastbuildk8"@1e62f5397d5e3f107dd01b43035cdcc261196fd1909f2a62878450cb10f4b879BjvmB	srcB	comBexampleBledgerB
Hello.java
BexternalB
bazel_toolsB	tools
Bgenrule	Bgenrule-setup.sh
"B	bazel-outBk8-fastbuildB	binB	jvmBledger_dated.jar
¯@d98f617d562c8923cec7bda0696a83055dcd8db3b03748021445818d8f25b2bd"Genrule(2	/bin/bash2-c2èsource external/bazel_tools/tools/genrule/genrule-setup.sh; classes=$(mktemp -d) && javac -d $classes jvm/src/com/example/ledger/Hello.java && jar --create --date=1980-01-01T00:00:02Z --file bazel-out/k8-fastbuild/bin/jvm/ledger_dated.jar -C $classes . && rm -rf $classesBJh//jvm:jar_handmade"B
ledger.jar
÷@7137ea624b508da58a43a03725ff03f19060c731e09172b9d7563bdc55834ab8"Genrule(2	/bin/bash2-c2Ìsource external/bazel_tools/tools/genrule/genrule-setup.sh; classes=$(mktemp -d) && javac -d $classes jvm/src/com/example/ledger/Hello.java && jar --create --file bazel-out/k8-fastbuild/bin/jvm/ledger.jar -C $classes . && rm -rf $classesBJh:	sh_binary//pkg:gzip_bestBpkgBgzip_best.sh
"B	pkgB	gzip_best
a@eae334196d7c686bfe4aa9fd1466ab92351b7709e7c61afce7c2affd7a4ca23f"ExecutableSymlink(BJhB!gzip_best.runfiles_manifest
b@db2aa4034adebea080c41bb566618b496dba2c6c2a46fc61c3b7f71e8c17f5ab"SourceSymlinkManifest(Jh"Bgzip_best.runfilesBMANIFEST
[@ba9092770d67d939737bff4d1a3ec266ec90af3dcc913e358fd64aa9e5f45cdf"SymlinkTree(BJh""BinternalB
_middlemenBpkg_Sgzip_Ubest-runfiles
	Y@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJ	h	//pkg:handmade_tarB
README.txt

Bledger.conf
"
"Bhandmade.tar
˜@9abb28abc3ca6a66275a6a6903655e1f8708b9189477c2d72eb095a9a65aa221"Genrule(2	/bin/bash2-c2ésource external/bazel_tools/tools/genrule/genrule-setup.sh; tar -cf bazel-out/k8-fastbuild/bin/pkg/handmade.tar pkg/README.txt pkg/ledger.confBJh:pkg_tar_impl//pkg:tar_compressorBtar_compressor.manifest
V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(JhB 	ledger.sh
 B$k8-opt-exec-2B5CBBC6B	#bin$B	"pkg#B!	gzip_best"
!"	

B)	rules_pkgB	(pkg)B'private(B	&tar'B%build_tar.py&
%B/external#B.	rules_pkg/B	-pkg.B,private-B	+tar,B*	build_tar+
*"B2internal$B1
_middlemen2BB0<external_Srules_Upkg_Spkg_Sprivate_Star_Sbuild_Utar-runfiles1
0""B3pkg_Sgzip_Ubest-runfiles1
3"""	
B4tar_compressor.tar.gz
4∫@7a776fb597cd4a0c0ac7a4664c2c070926d24cd7780893ab6697081db1ca2a23"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar2=--output=bazel-out/k8-fastbuild/bin/pkg/tar_compressor.tar.gz2--mode=05552--owner=0.02--owner_name=.2--directory=/2@--compressor=bazel-out/k8-opt-exec-2B5CBBC6/bin/pkg/gzip_best -92--mtime=portable2A--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_compressor.manifestB	Jh//pkg:tar_deps_handmadeB 5tar_deps_handmade.manifest
5V@74db65f66c5a8d0213c6c617ce2ce49127487ab3b9ff7647f433896a4c8c19cc"	FileWrite(Jh""B6tar_deps_handmade.tar
6Æ@b38b575fbcce81d40add7a5a8c0276fbef37227cb6264b74e34e72b0a38d56e3"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar2=--output=bazel-out/k8-fastbuild/bin/pkg/tar_deps_handmade.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable21--tar=bazel-out/k8-fastbuild/bin/pkg/handmade.tar2D--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_deps_handmade.manifestBJh//pkg:tar_deps_pkgB7tar_deps_pkg.manifest
7V@74db65f66c5a8d0213c6c617ce2ce49127487ab3b9ff7647f433896a4c8c19cc"	FileWrite(JhB8tar_plain.tar
8""B9tar_deps_pkg.tar
9•@9c3e5bc4f644a9f2228b9492a34e6e5045d55dcdd000642d78daeebba3ace3da"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar28--output=bazel-out/k8-fastbuild/bin/pkg/tar_deps_pkg.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable22--tar=bazel-out/k8-fastbuild/bin/pkg/tar_plain.tar2?--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_deps_pkg.manifestBJh//pkg:tar_epochB:tar_epoch.manifest
:V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh"
"B;tar_epoch.tar
;Ÿ@ac1de50dfeb7b1c97eb7f842bf266cf056a0c3e0e5f3cdd130e5780312d6e782"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_epoch.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2<--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_epoch.manifestBJh	//pkg:tar_gzB<tar_gz.manifest
<V	@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh"
"B=tar_gz.tar.gz
=˙	@a0cd88dc63aab1323a4a9ede2fa70bd7f66284e2dfe466dbdf0e8e90b15c7ca9"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_gz.tar.gz2--mode=05552--owner=0.02--owner_name=.2--directory=/2--compression=gz2--mtime=portable29--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_gz.manifestBJh
//pkg:tar_mode_ownerB>tar_mode_owner.manifest
>V
@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh"
"B?tar_mode_owner.tar
?ü
@fb6b10996a034377e7ffe7c4c4bc9c169c7332b74e6bf77aa830398a4bbfc302"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar2:--output=bazel-out/k8-fastbuild/bin/pkg/tar_mode_owner.tar2--mode=06442--owner=1000.10002--owner_name=ledger.ledger2--directory=/2--mtime=portable2--modes=ledger.sh=07552A--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_mode_owner.manifestBJh//pkg:tar_mtimeB@tar_mtime.manifest
 @V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J h "
 "BAtar_mtime.tar
!AÌ@64f9ee80d19d573fee324110eef6ece7c50a4cc76dee533a2ae61e666ca57c9a"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_mtime.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=16000000002<--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_mtime.manifestBJ!h!//pkg:tar_package_dirBBtar_package_dir.manifest
"BV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J"h""
""BCtar_package_dir.tar
#Cá@8d88d8c4031da8845096aabf695fa088f64a7946f33ed5b132c74da0b7e897d4"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar2;--output=bazel-out/k8-fastbuild/bin/pkg/tar_package_dir.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/usr/share/ledger2--mtime=portable2B--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_package_dir.manifestBJ#h#//pkg:tar_plainBDtar_plain.manifest
$DV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J$h$"
$"Î@a2d09750ad67377b783bf05ebfb85b75b17a4de693dfd574e0aee249c0c0ad45"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_plain.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2<--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_plain.manifestBJh//pkg:tar_stamp_detectBEtar_stamp_detect.manifest
%EV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J%h%BFvolatile-status.txt
&F"	!
&%" !BGtar_stamp_detect.tar
'G•@5f4ff6dabc57178ce539b7039249ca2a32e88143ae6f017cde290fa55d5c173b"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar2<--output=bazel-out/k8-fastbuild/bin/pkg/tar_stamp_detect.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2*--stamp_from=bazel-out/volatile-status.txt2C--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_stamp_detect.manifestB J'h'//pkg:tar_stampedBHtar_stamped.manifest
(HV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J(h("	#
&(""#BItar_stamped.tar
)Iõ@edb3f8500fd2862e4434f773434681970cfab6213d375de9a038280c62132bcc"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar27--output=bazel-out/k8-fastbuild/bin/pkg/tar_stamped.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2*--stamp_from=bazel-out/volatile-status.txt2>--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_stamped.manifestB"J)h)//pkg:tar_strip_prefixBJtar_strip_prefix.manifest
*JV@585802d72d2daef8dd721ba28967ed89a3a853b1678227b50fa0f7ae4c65f333"	FileWrite(J*h*BLshareBKaccounts.txtL
+K"	%
+*"$%BMtar_strip_prefix.tar
,M˘@79eee4449e382418e5976f1daf71dc5f3c35dd3df735ff623ce2d8b75326447b"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar2<--output=bazel-out/k8-fastbuild/bin/pkg/tar_strip_prefix.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2C--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_strip_prefix.manifestB$J,h,//pkg:tar_symlinksBNtar_symlinks.manifest
-NV@3cf573dbd80bc26355c9714b43b8bf77260dea0415e193120717f96da702b076"	FileWrite(J-h-"'-"&'BOtar_symlinks.tar
.OÒ@3616764eb4843e6de05e533c83aa0434ac994138ec7cb786a5ec4096ae38a44d"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar28--output=bazel-out/k8-fastbuild/bin/pkg/tar_symlinks.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2?--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_symlinks.manifestB&J.h.//pkg:tar_unstampedBPtar_unstamped.manifest
/PV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J/h/")
/"()BQtar_unstamped.tar
0QÛ@1e1007000e44fae6d2b462b372e4cba117c74362b44c956e150bb591c02d9ec1"
PackageTar(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/tar/build_tar29--output=bazel-out/k8-fastbuild/bin/pkg/tar_unstamped.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2@--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_unstamped.manifestB(J0h0:pkg_zip_impl//pkg:zip_package_dirBRzip_package_dir.manifest
1RV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J1h1"+
1B	Tzip'BSbuild_zip.pyT
2SB	Vzip,BU	build_zipV
3U"-23BBW<external_Srules_Upkg_Spkg_Sprivate_Szip_Sbuild_Uzip-runfiles1
4W",-4"*+,BXzip_package_dir.zip
5Xÿ@5c7818a3869ccbfddca688bdccfd87848932434ba0face59bca1859ee84cdfc0"
PackageZip(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/zip/build_zip2-o22bazel-out/k8-fastbuild/bin/pkg/zip_package_dir.zip2-d2/usr/share/ledger2-t2	3155328002-m205552
--manifest27bazel-out/k8-fastbuild/bin/pkg/zip_package_dir.manifestB*J5h5//pkg:zip_plainBYzip_plain.manifest
6YV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J6h6"/
6"./,BZzip_plain.zip
7Zº@f06d1afb5154b7a6c00f83519412c6e33f4192a934d04ef4c43b87bec1b23ea6"
PackageZip(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/zip/build_zip2-o2,bazel-out/k8-fastbuild/bin/pkg/zip_plain.zip2-d2/2-t2	3155328002-m205552
--manifest21bazel-out/k8-fastbuild/bin/pkg/zip_plain.manifestB.J7h7//pkg:zip_stampedB[zip_stamped.manifest
8[V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J8h8"	1
&8"01,B\zip_stamped.zip
9\Ì@50d0cc5dfe418feda14f356db45d51dcffc697c6d8e11b2a641efa25cb39e7e0"
PackageZip(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/zip/build_zip2-o2.bazel-out/k8-fastbuild/bin/pkg/zip_stamped.zip2-d2/2-t2	3155328002-m205552--stamp_from2bazel-out/volatile-status.txt2
--manifest23bazel-out/k8-fastbuild/bin/pkg/zip_stamped.manifestB0J9h9//pkg:zip_timestampB]zip_timestamp.manifest
:]V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J:h:"3
:"23,B^zip_timestamp.zip
;^≈@239c9ce32bb96c44c1ee160e8bc9bd2a4563963241aa0d214c464209dba5d775"
PackageZip(2Obazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/zip/build_zip2-o20bazel-out/k8-fastbuild/bin/pkg/zip_timestamp.zip2-d2/2-t2
16000000002-m206442
--manifest25bazel-out/k8-fastbuild/bin/pkg/zip_timestamp.manifestB2J;h;:
cc_library//stamp:buildinfoB	`stampB_buildinfo.h`
<_"4<BDa>_S_Sstamp_Cbuildinfo-BazelCppSemantics_build_arch_k8-fastbuild
=aY@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(B4J=h=:	cc_binary//stamp:ledger"5=BAb;_S_Sstamp_Cledger-BazelCppSemantics_build_arch_k8-fastbuild
>bY@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(B5J>h>B1c+external_Slocal_Uconfig_Ucc_Ccompiler_Udeps1
?cBdmain.cc`
@dB	fcpp	Begrep-includes.shf
Ae"7?@A"67>BjstampBi_objsjBhledgeriBg
main.pic.oh
BgBk
main.pic.dh
CkË@55c25e780c8790b44f126875e19f88d737f9e9f57d72249fd76b2d2ae2369973"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF28bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/main.pic.d2F-frandom-seed=bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/main.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-iquote2external/bazel_tools2-iquote2/bazel-out/k8-fastbuild/bin/external/bazel_tools2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2stamp/main.cc2-o28bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/main.pic.oB6JBCPhBBlledger-2.paramsj
DlV@c3266a24279955ec9817bcf27936a384f436274e55bf3104b44491d5c692509c"	FileWrite(JDhD":<>?BnincludeBmbuild-info-nonvolatile.hn
EmBobuild-info-volatile.hn
FoBpbuildinfo.cc`
Gp"9:EFGABqbuild_interface_sof
HqBrlink_dynamic_library.shf
Ir"<?HI"
;<B>D"89;BtstamphBsbuildinfo.ot
Jsø@fa110f77dea8078932c82968929eaef0f522ed590c3f95952223e58585aeb074"CppLinkstampCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2;-DG3_BUILD_TARGET="bazel-out/k8-fastbuild/bin/stamp/ledger"2!-DG3_TARGET_NAME="//stamp:ledger"2-DBUILD_COVERAGE_ENABLED=02-DGPLATFORM="local"2-include27bazel-out/k8-fastbuild/include/build-info-nonvolatile.h2-include24bazel-out/k8-fastbuild/include/build-info-volatile.h2-I.2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2stamp/buildinfo.cc2-o2?bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/stamp/buildinfo.oB8JJb∆
0bazel-out/k8-fastbuild/bin/stamp/ledger-2.params-o'bazel-out/k8-fastbuild/bin/stamp/ledger-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codes8bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/main.pic.o?bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/stamp/buildinfo.o-lstdc++-lmhJ"=<B>JDBuledgerj
Kuı@e3210dfa3408b6b7269756bbae2ae8e5547ad4b04ede2fc2373d41cf7ae0d4c6"CppLink(2/usr/bin/gcc2-o2'bazel-out/k8-fastbuild/bin/stamp/ledger2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes28bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/main.pic.o2?bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/stamp/buildinfo.o2-lstdc++2-lm21@bazel-out/k8-fastbuild/bin/stamp/ledger-2.paramsB=JKb∆
0bazel-out/k8-fastbuild/bin/stamp/ledger-2.params-o'bazel-out/k8-fastbuild/bin/stamp/ledger-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codes8bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/main.pic.o?bazel-out/k8-fastbuild/bin/stamp/_objs/ledger/stamp/buildinfo.o-lstdc++-lmhKB(v"external_Slocal_Uconfig_Ucc_Cempty1
Lv">LKBwledger.strippedj
MwÎ@2a6c2b28cae3ffa4f45fc98b3784d847755a277f0c11ef30eef5e9a0c523c19e"CcStrip(2/usr/bin/strip2-S2-p2-o20bazel-out/k8-fastbuild/bin/stamp/ledger.stripped2-R2.gnu.switches.text.quote_paths2-R2 .gnu.switches.text.bracket_paths2-R2.gnu.switches.text.system_paths2-R2.gnu.switches.text.cpp_defines2-R2.gnu.switches.text.cpp_includes2-R2.gnu.switches.text.cl_args2-R2.gnu.switches.text.lipo_info2-R2.gnu.switches.text.annotation2'bazel-out/k8-fastbuild/bin/stamp/ledgerB>JMhMBx
ledger.dwpj
NxV@8bfa366824070092e016c0d24cfc35cb391dad36247df16128baeaa98d05a397"	FileWrite(JNhNByledger.runfiles_manifestj
Oyb@46380c1dd87b0e1d6b80aa571f07c2f68de47bf567284e62274f5e428397b920"SourceSymlinkManifest(JOhO"?OB{ledger.runfilesjBzMANIFEST{
Pz[@028070228d87ef3a23193f56b5064571a0deadc876354b8a08e22ccfda8465a0"SymlinkTree(B?JPhP"@KPB|stamp_Sledger-runfiles
Q|Y@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(B@JQhQ//stamp:ledger_unstampedBL}F_S_Sstamp_Cledger_Uunstamped-BazelCppSemantics_build_arch_k8-fastbuild
R}Y@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(B5JRhR"B?@A"ABRBledger_unstampediB~
main.pic.o
S~BÄ
main.pic.d
TÄÜ@298f0c5da655db6535dc32e802327403d005b37c42b4de57e8c7553f04a1ae47"
CppCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2-MD2-MF2Bbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/main.pic.d2P-frandom-seed=bazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/main.pic.o2-fPIC2-iquote2.2-iquote2bazel-out/k8-fastbuild/bin2-iquote2external/bazel_tools2-iquote2/bazel-out/k8-fastbuild/bin/external/bazel_tools2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2stamp/main.cc2-o2Bbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/main.pic.oBAJSTPhSB Åledger_unstamped-2.paramsj
UÅV@2f0a77994da79b22bf4ff32bf115bbc189b4164fe5f4b43c2bcc1f1788569e3e"	FileWrite(JUhU"E<R?BÇbuild-info-redacted.hn
VÇ"
DEVGA"
F<SRU"CDFBÑstampBÉbuildinfo.oÑ
WÉ¬@1aad692fb4861e7ef6a69ac41d6931e4c3cfe49031cfaede560e56d2fcf31d29"CppLinkstampCompile(2/usr/bin/gcc2-U_FORTIFY_SOURCE2-fstack-protector2-Wall2-Wunused-but-set-parameter2-Wno-free-nonheap-object2-fno-omit-frame-pointer2
-std=c++0x2E-DG3_BUILD_TARGET="bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped"2+-DG3_TARGET_NAME="//stamp:ledger_unstamped"2-DBUILD_COVERAGE_ENABLED=02-DGPLATFORM="local"2-include24bazel-out/k8-fastbuild/include/build-info-redacted.h2-I.2-fno-canonical-system-headers2-Wno-builtin-macro-redefined2-D__DATE__="redacted"2-D__TIMESTAMP__="redacted"2-D__TIME__="redacted"2-c2stamp/buildinfo.cc2-o2Ibazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/stamp/buildinfo.oBCJWbÓ
:bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped-2.params-o1bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codesBbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/main.pic.oIbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/stamp/buildinfo.o-lstdc++-lmhW"G<SRWUBÖledger_unstampedj
XÖ≈@cb6ddb151824848cd1babf86415f6f5b073004375443f63b14cec06c4685a771"CppLink(2/usr/bin/gcc2-o21bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped2-Wl,-S2-fuse-ld=gold2-Wl,-no-as-needed2-Wl,-z,relro,-z,now2
-B/usr/bin2-pass-exit-codes2Bbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/main.pic.o2Ibazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/stamp/buildinfo.o2-lstdc++2-lm2;@bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped-2.paramsBGJXbÓ
:bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped-2.params-o1bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped-Wl,-S-fuse-ld=gold-Wl,-no-as-needed-Wl,-z,relro,-z,now
-B/usr/bin-pass-exit-codesBbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/main.pic.oIbazel-out/k8-fastbuild/bin/stamp/_objs/ledger_unstamped/stamp/buildinfo.o-lstdc++-lmhX"HLXB Üledger_unstamped.strippedj
YÜˇ@b715135f0a40e1d6ad115cfafa7a539d24ebc38d89f30f0911bc703cbe67f6a5"CcStrip(2/usr/bin/strip2-S2-p2-o2:bazel-out/k8-fastbuild/bin/stamp/ledger_unstamped.stripped2-R2.gnu.switches.text.quote_paths2-R2 .gnu.switches.text.bracket_paths2-R2.gnu.switches.text.system_paths2-R2.gnu.switches.text.cpp_defines2-R2.gnu.switches.text.cpp_includes2-R2.gnu.switches.text.cl_args2-R2.gnu.switches.text.lipo_info2-R2.gnu.switches.text.annotation21bazel-out/k8-fastbuild/bin/stamp/ledger_unstampedBHJYhYBáledger_unstamped.dwpj
ZáV@8bfa366824070092e016c0d24cfc35cb391dad36247df16128baeaa98d05a397"	FileWrite(JZhZB)à"ledger_unstamped.runfiles_manifestj
[àb@113ef99bb6d0718a03a98b0a2bd0bf904a2832a730342dfd7bffcfeeacde3eb8"SourceSymlinkManifest(J[h["I[B äledger_unstamped.runfilesjBâMANIFESTä
\â[@400fc365cf17304134b3f988c058c8e03ce6ee8c9eadc845cf0840c4b44f9467"SymlinkTree(BIJ\h\"JX\B(ã!stamp_Sledger_Uunstamped-runfiles
]ãY@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJJ]h]//wheel:wheel_handmadeB
éwheelBçledgeréBå__init__.pyç
^åBèaccounts.pyç
_è"L^_"KLBíwheelBëhandmadeíB%êledger-1.4.2-py3-none-any.whlë
`êè@d3c79a1500425d9fc40d2077b0d3a3f14f128f3ae1fc11c1ccf9314786adbaee"Genrule(2	/bin/bash2-c2¶source external/bazel_tools/tools/genrule/genrule-setup.sh; python3 -m zipfile -c bazel-out/k8-fastbuild/bin/wheel/handmade/ledger-1.4.2-py3-none-any.whl wheel/ledgerBKJ`h`:py_wheel//wheel:wheel_plainB-ì%wheel_plain_target_wrapped_inputs.txtí
aìV@b1341ba574660ea747bde937ee1c8283ae80f847c63c30e659cafaaa0e3221cb"	FileWrite(Jaha"N^_aBñrules_pythonBïtoolsñBîwheelmaker.pyï
bîBôrules_python/BòtoolsôBó
wheelmakerò
có"PbcB:ö3external_Srules_Upython_Stools_Swheelmaker-runfiles1
dö"OPd"MNOB%õledger-1.4.2-py3-none-any.whlí
eõ∂@7c92bdaa2b784325782eb27faed62c76b6fe015a192eba7d3a819c9053b072d4"	PyPackage(2Ibazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_python/tools/wheelmaker2--name2ledger2	--version21.4.22--python_tag2py32--abi2none2
--platform2any2--out2>bazel-out/k8-fastbuild/bin/wheel/ledger-1.4.2-py3-none-any.whl2--input_file_list2Fbazel-out/k8-fastbuild/bin/wheel/wheel_plain_target_wrapped_inputs.txt2--strip_path_prefix2wheel/BMJehe//wheel:wheel_stampedB/ú'wheel_stamped_target_wrapped_inputs.txtí
fúV@b1341ba574660ea747bde937ee1c8283ae80f847c63c30e659cafaaa0e3221cb"	FileWrite(JfhfBùstable-status.txt
gù"	R^_f&g"QROB7û/ledger-1.4.2__BUILD_TIMESTAMP_-py3-none-any.whlí
hûƒ@d415d0df6868f38c6e8a9635f6baceff0e1f4cf7bad7b6fa8cd6847fccfcd822"	PyPackage(2Ibazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_python/tools/wheelmaker2--name2ledger2	--version21.4.2+{BUILD_TIMESTAMP}2--python_tag2py32--abi2none2
--platform2any2--out2Pbazel-out/k8-fastbuild/bin/wheel/ledger-1.4.2__BUILD_TIMESTAMP_-py3-none-any.whl2--input_file_list2Hbazel-out/k8-fastbuild/bin/wheel/wheel_stamped_target_wrapped_inputs.txt2--strip_path_prefix2wheel/2--volatile_stamp_info2bazel-out/volatile-status.txt2--stable_stamp_info2bazel-out/stable-status.txtBQJhhh