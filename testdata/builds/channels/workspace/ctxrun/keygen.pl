#!/usr/bin/perl
# keygen.pl OUT [--seed N]: a session key for the generated tests.
use strict;
use warnings;

my ($out, $flag, $seed) = @ARGV;
srand($seed) if defined $flag && $flag eq '--seed';
open(my $fh, '>', $out) or die "$out: $!";
printf $fh "key=%08x%08x\n", int(rand(2**32)), int(rand(2**32));
