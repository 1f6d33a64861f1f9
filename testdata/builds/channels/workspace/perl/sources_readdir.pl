#!/usr/bin/perl
# sources_readdir.pl DIR: the list of sources for a generated Makefile.
use strict;
use warnings;

my $dir = shift;
opendir(my $dh, $dir) or die "$dir: $!";
my @files = map { "$dir/$_" } grep { /\.txt$/ } readdir $dh;
print "SOURCES = @files\n";
