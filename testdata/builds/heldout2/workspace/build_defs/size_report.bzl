"""size_report: a JSON file of the sizes of release artifacts, for the CI's bloat check."""

def _size_report_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".json")
    ctx.actions.run(
        executable = "/usr/bin/python3",
        arguments = [ctx.file._script.path, out.path] + [f.path for f in ctx.files.srcs],
        inputs = ctx.files.srcs + [ctx.file._script],
        outputs = [out],
        mnemonic = "SizeReport",
    )
    return [DefaultInfo(files = depset([out]))]

size_report = rule(
    implementation = _size_report_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True, mandatory = True),
        "_script": attr.label(
            default = "//build_defs:size_report.py",
            allow_single_file = True,
        ),
    },
)
