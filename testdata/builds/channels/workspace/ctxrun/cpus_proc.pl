#!/usr/bin/perl
# cpus_proc.pl OUT: how many compile jobs to run: one per processor the
# kernel lists.
use strict;
use warnings;

open(my $in, '<', '/proc/cpuinfo') or die "/proc/cpuinfo: $!";
my $n = grep { /^processor\s*:/ } <$in>;
open(my $fh, '>', $ARGV[0]) or die "$ARGV[0]: $!";
print $fh "jobs=$n\n";
