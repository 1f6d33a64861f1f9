"""pkg_zip as rules_pkg 0.7 defines it: one action running
//pkg/private/zip:build_zip with its short flags, always through a
parameter file."""

load("//pkg/private:manifest.bzl", "write_manifest")

_stamp_condition = str(Label("//pkg/private:private_stamp_detect"))

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
            default = Label("//pkg/private/zip:build_zip"),
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
