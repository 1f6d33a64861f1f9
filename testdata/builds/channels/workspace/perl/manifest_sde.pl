#!/usr/bin/perl
# manifest_sde.pl FILE...: name, size and modification time of each file,
# clamped to SOURCE_DATE_EPOCH when it is set.
use strict;
use warnings;
use POSIX qw(strftime);

for my $file (@ARGV) {
    my @st = stat $file or die "$file: $!";
    my $mtime = $st[9];
    $mtime = $ENV{SOURCE_DATE_EPOCH} if defined $ENV{SOURCE_DATE_EPOCH} && $mtime > $ENV{SOURCE_DATE_EPOCH};
    printf "%s %d %s\n", $file, $st[7], strftime('%Y-%m-%dT%H:%M:%SZ', gmtime $mtime);
}
