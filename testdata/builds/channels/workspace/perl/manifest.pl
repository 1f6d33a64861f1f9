#!/usr/bin/perl
# manifest.pl FILE...: name, size and modification time of each file.
use strict;
use warnings;
use POSIX qw(strftime);

for my $file (@ARGV) {
    my @st = stat $file or die "$file: $!";
    printf "%s %d %s\n", $file, $st[7], strftime('%Y-%m-%dT%H:%M:%SZ', gmtime $st[9]);
}
