:	sh_binary//pkg:gzip_best*Vk8-fastbuildk8"@1e62f5397d5e3f107dd01b43035cdcc261196fd1909f2a62878450cb10f4b879BpkgBgzip_best.sh
"B	bazel-outBk8-fastbuildB	binB	pkgB	gzip_best
a@eae334196d7c686bfe4aa9fd1466ab92351b7709e7c61afce7c2affd7a4ca23f"ExecutableSymlink(BJhB!gzip_best.runfiles_manifest
b@4865791a9a3c82d025c6a501cf1b0294a39dce065cb50bab83f458637eba765c"SourceSymlinkManifest(Jh"B
gzip_best.runfilesB	MANIFEST

	[@b8f7814ff545da2a7959b69c260043c416a9db6e2ab1dc21434b9cd75256b666"SymlinkTree(BJh""BinternalB
_middlemenBpkg_Sgzip_Ubest-runfiles
Y@db9e25a4399752c6f2173101cef156d8cc65052294fbaae629f895aa7120c672"	Middleman(BJh:genrule//pkg:handmade_tarB
README.txt
Bledger.conf
"BexternalBbazel_toolsBtoolsBgenruleBgenrule-setup.sh
"Bhandmade.tar
	÷@9abb28abc3ca6a66275a6a6903655e1f8708b9189477c2d72eb095a9a65aa221"Genrule(2	/bin/bash2-c2Žsource external/bazel_tools/tools/genrule/genrule-setup.sh; tar -cf bazel-out/k8-fastbuild/bin/pkg/handmade.tar pkg/README.txt pkg/ledger.confBJ	h	:pkg_tar_impl//pkg:tar_compressorBtar_compressor.manifest

V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J
h
B	ledger.sh
Bk8-opt-exec-2B5CBBC6B	binB	pkgB	gzip_best
"	
B	rules_pkgB	pkgBprivateBbuild_tar.py
B$externalB#	rules_pkg$B	"pkg#B!private"B 	build_tar!
 "B'internalB&
_middlemen'B=%7external_Srules_Upkg_Spkg_Sprivate_Sbuild_Utar-runfiles&
%"
"B(pkg_Sgzip_Ubest-runfiles&
(""	
"	B)tar_compressor.tar.gz
)¶@eea65a56cabdf55616018328a1240e668836ccf0c86cd2a9955f43febb350bec"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar2=--output=bazel-out/k8-fastbuild/bin/pkg/tar_compressor.tar.gz2--mode=05552--owner=0.02--owner_name=.2--directory=/2@--compressor=bazel-out/k8-opt-exec-2B5CBBC6/bin/pkg/gzip_best -92--mtime=portable2A--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_compressor.manifestBJh//pkg:tar_deps_handmadeB *tar_deps_handmade.manifest
*V@74db65f66c5a8d0213c6c617ce2ce49127487ab3b9ff7647f433896a4c8c19cc"	FileWrite(Jh"	"
B+tar_deps_handmade.tar
+ª@0502b42db79706cebdc4ac6fd3ae3c4fe9ebcb5e231c6e0abfa55937be598fe3"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar2=--output=bazel-out/k8-fastbuild/bin/pkg/tar_deps_handmade.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable21--tar=bazel-out/k8-fastbuild/bin/pkg/handmade.tar2D--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_deps_handmade.manifestBJh//pkg:tar_deps_pkgB,tar_deps_pkg.manifest
,V@74db65f66c5a8d0213c6c617ce2ce49127487ab3b9ff7647f433896a4c8c19cc"	FileWrite(JhB-tar_plain.tar
-""
B.tar_deps_pkg.tar
.¡@35c0ab29a650f13dd8d1a51e4957c054a7338c83c6cce6175dcc4ef0d416cf83"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar28--output=bazel-out/k8-fastbuild/bin/pkg/tar_deps_pkg.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable22--tar=bazel-out/k8-fastbuild/bin/pkg/tar_plain.tar2?--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_deps_pkg.manifestBJh//pkg:tar_epochB/tar_epoch.manifest
/V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh""
B0tar_epoch.tar
0Õ@3dda9e0d81aad6395a552008be4561fc8515ac21cdff1bcc68b88596554d8066"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_epoch.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2<--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_epoch.manifestBJh//pkg:tar_gzB1tar_gz.manifest
1V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh""
B2tar_gz.tar.gz
2ö@e2cb64bbfc5a8b4e08e28216c6fb748162105bb1e1b1764256643a0f87a4722f"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_gz.tar.gz2--mode=05552--owner=0.02--owner_name=.2--directory=/2--compression=gz2--mtime=portable29--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_gz.manifestBJh//pkg:tar_mode_ownerB3tar_mode_owner.manifest
3V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh""
B4tar_mode_owner.tar
4›@18849b3088dfc85609d981ac8290d3def7a194b83ee694db92b67cee4d2ac9ea"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar2:--output=bazel-out/k8-fastbuild/bin/pkg/tar_mode_owner.tar2--mode=06442--owner=1000.10002--owner_name=ledger.ledger2--directory=/2--mtime=portable2--modes=ledger.sh=07552A--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_mode_owner.manifestBJh	//pkg:tar_mtimeB5tar_mtime.manifest
5V	@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh""
B6tar_mtime.tar
6é	@12a9eb506953a656c56649ce847d1811692aa034378e57c19beb1f0b0163c9d7"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_mtime.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=16000000002<--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_mtime.manifestBJh
//pkg:tar_package_dirB7tar_package_dir.manifest
7V
@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(Jh""
B8tar_package_dir.tar
 8ƒ
@f0b04dc49428175148aabae5c59269f8e50a7fb55bf50bb9e22f47e43a077cf9"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar2;--output=bazel-out/k8-fastbuild/bin/pkg/tar_package_dir.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/usr/share/ledger2--mtime=portable2B--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_package_dir.manifestBJ h //pkg:tar_plainB9tar_plain.manifest
!9V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J!h!"!"
ç@dda4b2553385ec7c610d18c947624c3708651040f7b146f2b046154998972a86"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar25--output=bazel-out/k8-fastbuild/bin/pkg/tar_plain.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2<--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_plain.manifestBJh//pkg:tar_stamp_detectB:tar_stamp_detect.manifest
":V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J"h"B;volatile-status.txt
#;"	#""
B<tar_stamp_detect.tar
$<¡@5b1fe92cb9e6e3ebba9e05ec457b69563d2437e297aecc4e9bf81d4b96fbc743"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar2<--output=bazel-out/k8-fastbuild/bin/pkg/tar_stamp_detect.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2*--stamp_from=bazel-out/volatile-status.txt2C--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_stamp_detect.manifestBJ$h$//pkg:tar_stampedB=tar_stamped.manifest
%=V@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J%h%"	!#%" !
B>tar_stamped.tar
&>—@1d3e7eba178ef37e06e8cdf69ed877a77bb5d2e960946a9094483c805192152a"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar27--output=bazel-out/k8-fastbuild/bin/pkg/tar_stamped.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2*--stamp_from=bazel-out/volatile-status.txt2>--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_stamped.manifestB J&h&//pkg:tar_strip_prefixB?tar_strip_prefix.manifest
'?V@585802d72d2daef8dd721ba28967ed89a3a853b1678227b50fa0f7ae4c65f333"	FileWrite(J'h'BAshareB@accounts.txtA
(@"	#('""#
BBtar_strip_prefix.tar
)Bõ@5f46a3d2e106d1993c1c1305dd84164ef100f8daaeda4c3ac1856bd59e56d489"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar2<--output=bazel-out/k8-fastbuild/bin/pkg/tar_strip_prefix.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2C--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_strip_prefix.manifestB"J)h)//pkg:tar_symlinksBCtar_symlinks.manifest
*CV@3cf573dbd80bc26355c9714b43b8bf77260dea0415e193120717f96da702b076"	FileWrite(J*h*"%*"$%
BDtar_symlinks.tar
+Dí@b17c4ae09973c1f746b43643d0d8b6681688fa32ba8ac1bb3961506230f1a859"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar28--output=bazel-out/k8-fastbuild/bin/pkg/tar_symlinks.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2?--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_symlinks.manifestB$J+h+//pkg:tar_unstampedBEtar_unstamped.manifest
,EV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J,h,"',"&'
BFtar_unstamped.tar
-Fï@d6a9632f015817c0ba4db60ddf0f5dfad86d126c6eeab36535965b94dfa5accd"
PackageTar(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_tar29--output=bazel-out/k8-fastbuild/bin/pkg/tar_unstamped.tar2--mode=05552--owner=0.02--owner_name=.2--directory=/2--mtime=portable2@--manifest=bazel-out/k8-fastbuild/bin/pkg/tar_unstamped.manifestB&J-h-:pkg_zip_impl//pkg:zip_package_dirBGzip_package_dir.manifest
.GV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J.h.").BHbuild_zip.py
/HBI	build_zip!
0I"+/0B=J7external_Srules_Upkg_Spkg_Sprivate_Sbuild_Uzip-runfiles&
1J"*+1"()*BKzip_package_dir.zip
2KÔ@900723e106a0eeee72dd598c2e5ea5e4650d36261f230d6d123efb9816cd1c97"
PackageZip(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_zip2-o22bazel-out/k8-fastbuild/bin/pkg/zip_package_dir.zip2-d2/usr/share/ledger2-t2	3155328002-m205552
--manifest27bazel-out/k8-fastbuild/bin/pkg/zip_package_dir.manifestB(J2h2//pkg:zip_plainBLzip_plain.manifest
3LV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J3h3"-3",-*BMzip_plain.zip
4M¸@7b0f5c4e3708f1e07ab33a02ab8c8b16db8e982f197f4d0fcea4e01cd179f8ac"
PackageZip(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_zip2-o2,bazel-out/k8-fastbuild/bin/pkg/zip_plain.zip2-d2/2-t2	3155328002-m205552
--manifest21bazel-out/k8-fastbuild/bin/pkg/zip_plain.manifestB,J4h4//pkg:zip_stampedBNzip_stamped.manifest
5NV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J5h5"	/#5"./*BOzip_stamped.zip
6Oé@25a87f4992b7abacece463df57aec7e2df3455e6cc12821586fc9d7ba09e6ecb"
PackageZip(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_zip2-o2.bazel-out/k8-fastbuild/bin/pkg/zip_stamped.zip2-d2/2-t2	3155328002-m205552--stamp_from2bazel-out/volatile-status.txt2
--manifest23bazel-out/k8-fastbuild/bin/pkg/zip_stamped.manifestB.J6h6//pkg:zip_timestampBPzip_timestamp.manifest
7PV@809f7fc3ae4840c218992158ac34b6cc69404e03bde02b0910d64d1d0627a4db"	FileWrite(J7h7"17"01*BQzip_timestamp.zip
8QÁ@caecead3a15f29a79178c0888be37ba4057b96dbd3dc8a4a389d6870165f0e70"
PackageZip(2Kbazel-out/k8-opt-exec-2B5CBBC6/bin/external/rules_pkg/pkg/private/build_zip2-o20bazel-out/k8-fastbuild/bin/pkg/zip_timestamp.zip2-d2/2-t2
16000000002-m206442
--manifest25bazel-out/k8-fastbuild/bin/pkg/zip_timestamp.manifestB0J8h8