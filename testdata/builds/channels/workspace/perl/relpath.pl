#!/usr/bin/perl
# relpath.pl FILE: a #line directive naming FILE for the generated code.
use strict;
use warnings;
use File::Spec;

printf "#line 1 \"%s\"\n", File::Spec->canonpath($ARGV[0]);
