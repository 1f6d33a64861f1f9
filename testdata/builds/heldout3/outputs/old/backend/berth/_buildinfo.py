# Generated at build time.
VERSION = '3.8.1'
BUILT_AT = '2026-12-02T00:59:02+00:00'
BUILT_BY = 'root@vm'
PYTHON = '3.11.2'
MACHINE = 'x86_64'
