"""A rule that runs a script with one of the machine's interpreters."""

def _interpret_impl(ctx):
    out = ctx.actions.declare_file(ctx.attr.out)
    ctx.actions.run(
        executable = ctx.attr.interpreter,
        arguments = [ctx.file.script.path, out.path] + [f.path for f in ctx.files.srcs] + ctx.attr.options,
        inputs = [ctx.file.script] + ctx.files.srcs,
        outputs = [out],
        mnemonic = "Interpret",
        progress_message = "Running %s for %s" % (ctx.file.script.short_path, out.short_path),
    )
    return [DefaultInfo(files = depset([out]))]

interpret = rule(
    implementation = _interpret_impl,
    doc = "Runs `interpreter script out [srcs...] [options...]`; the script writes out.",
    attrs = {
        "interpreter": attr.string(default = "/usr/bin/python3", doc = "The interpreter's absolute path on the machine."),
        "script": attr.label(allow_single_file = True, mandatory = True),
        "out": attr.string(mandatory = True),
        "srcs": attr.label_list(allow_files = True),
        "options": attr.string_list(),
    },
)
