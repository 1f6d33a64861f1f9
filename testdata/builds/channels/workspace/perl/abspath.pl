#!/usr/bin/perl
# abspath.pl FILE: a #line directive naming FILE for the generated code.
use strict;
use warnings;
use Cwd qw(abs_path);

printf "#line 1 \"%s\"\n", abs_path($ARGV[0]);
