#!/usr/bin/perl
# machine.pl OUT [--quiet]: the build machine, in the output or only on
# standard error.
use strict;
use warnings;
use Sys::Hostname;

my ($out, $how) = @ARGV;
open(my $fh, '>', $out) or die "$out: $!";
if (defined $how && $how eq '--quiet') {
    print STDERR "built on ", hostname(), "\n";
    print $fh "machine: any\n";
} else {
    print $fh "machine: ", hostname(), "\n";
}
