"""py_wheel: a wheel of py_library sources, made by @rules_python//tools:wheelmaker."""

def _escape(segment):
    """A wheel file name's segments hold only letters, digits, _ and ."""
    return "".join([c if c.isalnum() or c in "._" else "_" for c in segment.elems()])

def _py_wheel_impl(ctx):
    name = "-".join([
        _escape(ctx.attr.distribution),
        _escape(ctx.attr.version),
        ctx.attr.python_tag,
        ctx.attr.abi,
        ctx.attr.platform,
    ]) + ".whl"
    wheel = ctx.actions.declare_file(name)
    sources = depset(transitive = [dep[DefaultInfo].files for dep in ctx.attr.deps]).to_list()

    file_list = ctx.actions.declare_file(ctx.label.name + "_target_wrapped_inputs.txt")
    ctx.actions.write(file_list, "".join(["%s;%s\n" % (f.short_path, f.path) for f in sources]))

    args = ctx.actions.args()
    args.add("--name", ctx.attr.distribution)
    args.add("--version", ctx.attr.version)
    args.add("--python_tag", ctx.attr.python_tag)
    args.add("--abi", ctx.attr.abi)
    args.add("--platform", ctx.attr.platform)
    args.add("--out", wheel.path)
    args.add("--input_file_list", file_list.path)
    for prefix in ctx.attr.strip_path_prefixes:
        args.add("--strip_path_prefix", prefix)
    inputs = sources + [file_list]
    if ctx.attr.stamp == 1:
        args.add("--volatile_stamp_info", ctx.version_file.path)
        args.add("--stable_stamp_info", ctx.info_file.path)
        inputs += [ctx.version_file, ctx.info_file]

    ctx.actions.run(
        mnemonic = "PyPackage",
        progress_message = "Building wheel",
        inputs = inputs,
        outputs = [wheel],
        executable = ctx.executable._wheelmaker,
        arguments = [args],
    )
    return [DefaultInfo(files = depset([wheel]))]

py_wheel = rule(
    implementation = _py_wheel_impl,
    attrs = {
        "deps": attr.label_list(),
        "distribution": attr.string(mandatory = True),
        "version": attr.string(mandatory = True),
        "python_tag": attr.string(default = "py3"),
        "abi": attr.string(default = "none"),
        "platform": attr.string(default = "any"),
        "strip_path_prefixes": attr.string_list(),
        # 1: {BUILD_TIMESTAMP} and the other status keys in version are
        # replaced from the workspace status files; 0: they stay as written.
        "stamp": attr.int(default = 0),
        "_wheelmaker": attr.label(
            default = Label("//tools:wheelmaker"),
            cfg = "exec",
            executable = True,
        ),
    },
)
