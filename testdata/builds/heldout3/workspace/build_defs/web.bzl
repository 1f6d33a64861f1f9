"""Small rules for the web frontend's assets."""

def _css_bundle_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".css")
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = [out],
        arguments = [out.path, ctx.files.srcs[0].dirname],
        command = """
out=$1; dir=$2
{
  echo '/* berth web styles, bundled */'
  find "$dir" -name '*.css' -exec cat {} +
} > "$out"
""",
        mnemonic = "CssBundle",
        progress_message = "Bundling CSS for %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([out]))]

css_bundle = rule(
    implementation = _css_bundle_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".css"], mandatory = True),
    },
)

def _runtime_config_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".js")
    ctx.actions.expand_template(
        template = ctx.file.template,
        output = out,
        substitutions = {"{%s}" % k: v for k, v in ctx.attr.values.items()},
    )
    return [DefaultInfo(files = depset([out]))]

runtime_config = rule(
    implementation = _runtime_config_impl,
    attrs = {
        "template": attr.label(allow_single_file = True, mandatory = True),
        "values": attr.string_dict(),
    },
)

def _po_catalog_impl(ctx):
    out = ctx.actions.declare_file("%s/%s.json" % (ctx.label.name, ctx.attr.lang))
    args = ctx.actions.args()
    args.add("--lang", ctx.attr.lang)
    args.add(ctx.file.po)
    args.add(out)
    ctx.actions.run(
        executable = ctx.executable._compiler,
        arguments = [args],
        inputs = [ctx.file.po],
        outputs = [out],
        mnemonic = "PoCompile",
        progress_message = "Compiling %s catalog" % ctx.attr.lang,
    )
    return [DefaultInfo(files = depset([out]))]

po_catalog = rule(
    implementation = _po_catalog_impl,
    attrs = {
        "po": attr.label(allow_single_file = [".po"], mandatory = True),
        "lang": attr.string(mandatory = True),
        "_compiler": attr.label(
            default = "//tools/i18n:compile",
            executable = True,
            cfg = "exec",
        ),
    },
)
