:genrule//account:generated*Vk8-fastbuildk8"@f5527a63a4773d9b4b1610a7539d7f704d66ef0ec083a237f84c700208babeedBexternalBbazel_toolsBtoolsBgenruleBgenrule-setup.sh
"B
	bazel-outB	k8-fastbuild
B	bin	BaccountBgenerated.txt
å@53384e9f43d0413b018658f8d3638b82ae118c46a7b80b74a40529b321c8c61c"Genrule(2	/bin/bash2-c2}source external/bazel_tools/tools/genrule/genrule-setup.sh; echo generated > bazel-out/k8-fastbuild/bin/account/generated.txtBJh//account:home_tildeBhome_tilde.txt
Þ@7d181f948a04c1e56d59b2ea607390f948bc461e9781f1e1f511635f353a1116"Genrule(2	/bin/bash2-c2vsource external/bazel_tools/tools/genrule/genrule-setup.sh; echo ~ > bazel-out/k8-fastbuild/bin/account/home_tilde.txtBJh//account:home_variableBhome_variable.txt
ñ@b823fb6844967f239c6d87f6cdb6140af0b5adf1cdce92919a3dabca0adb28d7"Genrule(2	/bin/bash2-c2ˆsource external/bazel_tools/tools/genrule/genrule-setup.sh; echo "${HOME:-unset}" > bazel-out/k8-fastbuild/bin/account/home_variable.txtBJh//account:idsBids.txt
ò@77962a8ecae49edad51da68e2065227d45e13f68013d6b7e5fd4099b2d42462e"Genrule(2	/bin/bash2-c2‰source external/bazel_tools/tools/genrule/genrule-setup.sh; echo "uid $(id -u) gid $(id -g)" > bazel-out/k8-fastbuild/bin/account/ids.txtBJh//account:make_parallelBaccountBMakefile
"Bmake_parallel.log
‚@d618fe4267cf0c0734261f82849af6940a737e4304ce194c7b56fa93b36b904e"Genrule(2	/bin/bash2-c2™source external/bazel_tools/tools/genrule/genrule-setup.sh; make -s -j8 -f account/Makefile OUT=$PWD/bazel-out/k8-fastbuild/bin/account/make_parallel.logBJh$//account:make_parallel_sorted"Bmake_parallel_sorted.log
ñ@09ed63499cdd5c09f0c821ad5e54be51d81c9307b26a02f1febd3ebec0b7671a"Genrule(2	/bin/bash2-c2ˆsource external/bazel_tools/tools/genrule/genrule-setup.sh; make -s -j8 -f account/Makefile OUT=$PWD/bazel-out/k8-fastbuild/bin/account/make_parallel_sorted.log.unsorted && LC_ALL=C sort bazel-out/k8-fastbuild/bin/account/make_parallel_sorted.log.unsorted > bazel-out/k8-fastbuild/bin/account/make_parallel_sorted.log && rm bazel-out/k8-fastbuild/bin/account/make_parallel_sorted.log.unsortedBJh#//account:tar_generated_owner"Btar_generated_owner.tar
	»@d82abd408ee04d1054c566008546fed53374ac37de14e1a2dfbab5a0ef58dc1e"Genrule(2	/bin/bash2-c2Òsource external/bazel_tools/tools/genrule/genrule-setup.sh; tar --sort=name --mtime=@0 --mode=go-w -cf bazel-out/k8-fastbuild/bin/account/tar_generated_owner.tar bazel-out/k8-fastbuild/bin/account/generated.txtBJ	h	//account:tar_ownerB
dataBa.txt

Bb.txt
Bc.txt
"
"Btar_owner.tar
¹@0d984e216e00e982c001c67a1bd8222c6e0b597b99dee46a7249454f8d75d590"Genrule(2	/bin/bash2-c2Ðsource external/bazel_tools/tools/genrule/genrule-setup.sh; tar --sort=name --mtime=@0 --mode=go-w -cf bazel-out/k8-fastbuild/bin/account/tar_owner.tar account/data/a.txt account/data/b.txt account/data/c.txtBJh	//account:tar_owner_fixed"
"Btar_owner_fixed.tar
ã	@20ce80c81fe4fd5829413447f8ac993cb6a73de326598bb9a693e80236953830"Genrule(2	/bin/bash2-c2úsource external/bazel_tools/tools/genrule/genrule-setup.sh; tar --sort=name --mtime=@0 --mode=go-w --owner=0 --group=0 --numeric-owner -cf bazel-out/k8-fastbuild/bin/account/tar_owner_fixed.tar account/data/a.txt account/data/b.txt account/data/c.txtBJh
//account:whoamiB
whoami.txt
Ú
@1d7cdd71ecb0aa127adbd85b777e7735a42ed4a76641c5e785315b1ffd437fa1"Genrule(2	/bin/bash2-c2rsource external/bazel_tools/tools/genrule/genrule-setup.sh; whoami > bazel-out/k8-fastbuild/bin/account/whoami.txtBJh