"""pkg_tar and pkg_zip as rules_pkg 0.6 defines them, both here: each a rule
whose one action runs //pkg/private:build_tar or //pkg/private:build_zip
with the flags below, and a macro naming the output."""

load("//pkg/private:manifest.bzl", "write_manifest")

_DEFAULT_MTIME = -1
_COMPRESSIONS = ["", "gz", "bz2", "xz"]
_stamp_condition = str(Label("//pkg/private:private_stamp_detect"))

def _quote(filename, protect = "="):
    return filename.replace("\\", "\\\\").replace(protect, "\\" + protect)

def _pkg_tar_impl(ctx):
    output = ctx.outputs.out
    inputs = list(ctx.files.srcs) + list(ctx.files.deps)

    args = ctx.actions.args()
    args.add("--output", output.path)
    args.add("--mode", ctx.attr.mode)
    args.add("--owner", ctx.attr.owner)
    args.add("--owner_name", ctx.attr.ownername)

    # A path inside the archive, not on the machine.
    args.add("--directory", ctx.attr.package_dir or "/")

    tools = []
    if ctx.executable.compressor:
        args.add("--compressor", "%s %s" % (ctx.executable.compressor.path, ctx.attr.compressor_args))
        tools.append(ctx.executable.compressor)
    elif ctx.attr.extension and ctx.attr.extension != "tar":
        compression = ctx.attr.extension[ctx.attr.extension.rfind(".") + 1:]
        if compression == "tgz":
            compression = "gz"
        if compression not in _COMPRESSIONS:
            fail("Unsupported compression: '%s'" % compression)
        args.add("--compression", compression)

    # Without either, build_tar writes time 0.
    if ctx.attr.mtime != _DEFAULT_MTIME:
        if ctx.attr.portable_mtime:
            fail("You may not set both mtime and portable_mtime")
        args.add("--mtime", "%d" % ctx.attr.mtime)
    if ctx.attr.portable_mtime:
        args.add("--mtime", "portable")

    for key in ctx.attr.modes:
        args.add("--modes", "%s=%s" % (_quote(key), ctx.attr.modes[key]))
    for key in ctx.attr.owners:
        args.add("--owners", "%s=%s" % (_quote(key), ctx.attr.owners[key]))
    for key in ctx.attr.ownernames:
        args.add("--owner_names", "%s=%s" % (_quote(key), ctx.attr.ownernames[key]))
    for f in ctx.files.deps:
        args.add("--tar", f.path)

    if ctx.attr.stamp == 1 or (ctx.attr.stamp == -1 and ctx.attr.private_stamp_detect):
        args.add("--stamp_from", ctx.version_file.path)
        inputs.append(ctx.version_file)

    manifest = write_manifest(ctx, ctx.files.srcs, ctx.attr.strip_prefix, ctx.attr.symlinks)
    inputs.append(manifest)
    args.add("--manifest", manifest.path)

    args.set_param_file_format("flag_per_line")
    args.use_param_file("@%s", use_always = False)

    ctx.actions.run(
        mnemonic = "PackageTar",
        progress_message = "Writing: %s" % output.path,
        inputs = inputs,
        tools = tools,
        executable = ctx.executable._build_tar,
        arguments = [args],
        outputs = [output],
        env = {
            "LANG": "en_US.UTF-8",
            "LC_CTYPE": "UTF-8",
            "PYTHONIOENCODING": "UTF-8",
            "PYTHONUTF8": "1",
        },
        use_default_shell_env = True,
    )
    return [DefaultInfo(files = depset([output]))]

pkg_tar_impl = rule(
    implementation = _pkg_tar_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True),
        "deps": attr.label_list(allow_files = [".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz"]),
        "strip_prefix": attr.string(),
        "package_dir": attr.string(),
        "mode": attr.string(default = "0555"),
        "modes": attr.string_dict(),
        "mtime": attr.int(default = _DEFAULT_MTIME),
        "portable_mtime": attr.bool(default = True),
        "owner": attr.string(default = "0.0"),
        "ownername": attr.string(default = "."),
        "owners": attr.string_dict(),
        "ownernames": attr.string_dict(),
        "extension": attr.string(default = "tar"),
        "symlinks": attr.string_dict(),
        "compressor": attr.label(executable = True, cfg = "exec"),
        "compressor_args": attr.string(),
        "out": attr.output(mandatory = True),
        # 1: the build's time (BUILD_TIMESTAMP) for every entry; 0: the
        # mtime above; -1: as --[no]stamp says.
        "stamp": attr.int(default = 0),
        "private_stamp_detect": attr.bool(default = False),
        "_build_tar": attr.label(
            default = Label("//pkg/private:build_tar"),
            cfg = "exec",
            executable = True,
            allow_files = True,
        ),
    },
)

def pkg_tar(name, **kwargs):
    """Makes NAME.EXTENSION (NAME.tar by default) from srcs and deps."""
    extension = kwargs.get("extension") or "tar"
    if extension[0] == ".":
        extension = extension[1:]
    pkg_tar_impl(
        name = name,
        out = kwargs.pop("out", None) or (name + "." + extension),
        private_stamp_detect = select({
            _stamp_condition: True,
            "//conditions:default": False,
        }),
        **kwargs
    )

def _pkg_zip_impl(ctx):
    output = ctx.outputs.out
    inputs = list(ctx.files.srcs)

    args = ctx.actions.args()
    args.add("-o", output.path)
    args.add("-d", ctx.attr.package_dir)
    args.add("-t", ctx.attr.timestamp)
    args.add("-m", ctx.attr.mode)
    if ctx.attr.stamp == 1 or (ctx.attr.stamp == -1 and ctx.attr.private_stamp_detect):
        args.add("--stamp_from", ctx.version_file.path)
        inputs.append(ctx.version_file)

    manifest = write_manifest(ctx, ctx.files.srcs, ctx.attr.strip_prefix)
    inputs.append(manifest)
    args.add("--manifest", manifest.path)
    args.set_param_file_format("multiline")
    args.use_param_file("@%s")

    ctx.actions.run(
        mnemonic = "PackageZip",
        inputs = inputs,
        executable = ctx.executable._build_zip,
        arguments = [args],
        outputs = [output],
        env = {
            "LANG": "en_US.UTF-8",
            "LC_CTYPE": "UTF-8",
            "PYTHONIOENCODING": "UTF-8",
            "PYTHONUTF8": "1",
        },
        use_default_shell_env = True,
    )
    return [DefaultInfo(files = depset([output]))]

pkg_zip_impl = rule(
    implementation = _pkg_zip_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True),
        "strip_prefix": attr.string(),
        # A path inside the archive.
        "package_dir": attr.string(default = "/"),
        "mode": attr.string(default = "0555"),
        # 1980-01-01, the earliest time a zip entry can hold.
        "timestamp": attr.int(default = 315532800),
        "out": attr.output(mandatory = True),
        "stamp": attr.int(default = 0),
        "private_stamp_detect": attr.bool(default = False),
        "_build_zip": attr.label(
            default = Label("//pkg/private:build_zip"),
            cfg = "exec",
            executable = True,
            allow_files = True,
        ),
    },
)

def pkg_zip(name, **kwargs):
    """Makes NAME.zip from srcs."""
    pkg_zip_impl(
        name = name,
        out = kwargs.pop("out", None) or name + ".zip",
        private_stamp_detect = select({
            _stamp_condition: True,
            "//conditions:default": False,
        }),
        **kwargs
    )
