#!/usr/bin/perl
# deps.pl OUT [--sorted]: the dependency table of the generated code.
use strict;
use warnings;

my ($out, $how) = @ARGV;
my %deps = (
    libc => 'glibc', libm => 'glibc', libz => 'zlib', libssl => 'openssl',
    libcrypto => 'openssl', libpng => 'libpng', libjpeg => 'libjpeg-turbo',
    libxml2 => 'libxml2', libffi => 'libffi', libbz2 => 'bzip2',
);
my @keys = keys %deps;
@keys = sort @keys if defined $how && $how eq '--sorted';
open(my $fh, '>', $out) or die "$out: $!";
print $fh "$_: $deps{$_}\n" for @keys;
