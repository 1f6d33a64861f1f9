#!/usr/bin/perl
# index.pl OUT FILE... [--sorted]: an index of the directory that holds the
# files.
use strict;
use warnings;
use File::Basename;

my ($out, @files) = @ARGV;
my $sorted = grep { $_ eq '--sorted' } @files;
my $dir = dirname($files[0]);
opendir(my $dh, $dir) or die "$dir: $!";
my @names = grep { !/^\./ } readdir $dh;
closedir $dh;
@names = sort @names if $sorted;
open(my $fh, '>', $out) or die "$out: $!";
print $fh "$_\n" for @names;
