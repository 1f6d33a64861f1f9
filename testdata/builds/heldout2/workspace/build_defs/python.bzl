"""py_version_file: the version module of the Python bindings."""

def _py_version_file_impl(ctx):
    out = ctx.actions.declare_file(ctx.attr.out)
    ctx.actions.run_shell(
        outputs = [out],
        arguments = [out.path],
        env = {"VERSION": ctx.attr.version},
        command = 'printf \'"""The driftwood version."""\\n\\n__version__ = "%s"\\n\' "$VERSION" > "$1"',
        mnemonic = "PyVersionFile",
    )
    return [DefaultInfo(files = depset([out]))]

py_version_file = rule(
    implementation = _py_version_file_impl,
    attrs = {
        "out": attr.string(mandatory = True),
        "version": attr.string(mandatory = True),
    },
)
