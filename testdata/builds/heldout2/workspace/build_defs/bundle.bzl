"""asset_bundle: the web console's files, minified, as one .tar.gz the daemon serves."""

def _asset_bundle_impl(ctx):
    staged = ctx.actions.declare_directory(ctx.label.name + ".staging")
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = [staged],
        arguments = [staged.path] + [f.path for f in ctx.files.srcs],
        # A cheap minifier: drop comment lines and leading blanks.
        command = """
set -e
dir=$1
shift
mkdir -p "$dir"
for f in "$@"; do
  sed -e '/^[[:space:]]*\\/[/*]/d' -e 's/^[[:space:]]*//' "$f" > "$dir/$(basename "$f")"
done
""",
        mnemonic = "StageAssets",
    )
    out = ctx.actions.declare_file(ctx.label.name + ".tar.gz")
    ctx.actions.run_shell(
        inputs = [staged],
        outputs = [out],
        arguments = [staged.path, out.path],
        command = 'tar -czf "$2" -C "$1" .',
        mnemonic = "BundleAssets",
    )
    return [DefaultInfo(files = depset([out]))]

asset_bundle = rule(
    implementation = _asset_bundle_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True, mandatory = True),
    },
)
