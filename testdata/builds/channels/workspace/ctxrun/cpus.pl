#!/usr/bin/perl
# cpus.pl OUT: how many compile jobs to run: one per CPU the build may use.
use strict;
use warnings;

chomp(my $n = `nproc`);
open(my $fh, '>', $ARGV[0]) or die "$ARGV[0]: $!";
print $fh "jobs=$n\n";
