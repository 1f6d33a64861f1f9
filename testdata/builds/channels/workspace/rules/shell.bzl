"""A rule that runs a shell script given inline, with ctx.actions.run_shell."""

def _sh_output_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ctx.attr.extension)
    ctx.actions.run_shell(
        outputs = [out],
        inputs = ctx.files.srcs,
        command = ctx.attr.command,
        arguments = [out.path] + [f.path for f in ctx.files.srcs],
        mnemonic = "ShOutput",
        progress_message = "Generating %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

sh_output = rule(
    implementation = _sh_output_impl,
    doc = "Runs `command` with bash: $1 is the output, $2... the sources.",
    attrs = {
        "command": attr.string(mandatory = True),
        "srcs": attr.label_list(allow_files = True),
        "extension": attr.string(default = ".txt"),
    },
)
