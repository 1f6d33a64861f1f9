#!/usr/bin/perl
# sources.pl DIR: the list of sources for a generated Makefile.
use strict;
use warnings;

my $dir = shift;
my @files = glob("$dir/*.txt");
print "SOURCES = @files\n";
