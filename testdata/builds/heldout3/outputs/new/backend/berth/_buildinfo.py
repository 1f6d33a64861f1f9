# Generated at build time.
VERSION = '3.8.1'
BUILT_AT = '2026-12-02T00:59:33+00:00'
BUILT_BY = 'ahab-build@build-twice-new'
PYTHON = '3.11.2'
MACHINE = 'x86_64'
