#!/usr/bin/perl
# tarball.pl OUT FILE... [--normalize]: a tar of the files, with Archive::Tar.
# --normalize gives every member a fixed time, owner and mode.
use strict;
use warnings;
use Archive::Tar;

my ($out, @files) = @ARGV;
my $normalize = grep { $_ eq '--normalize' } @files;
@files = grep { $_ ne '--normalize' } @files;
my $tar = Archive::Tar->new;
for my $file (@files) {
    if ($normalize) {
        open(my $in, '<', $file) or die "$file: $!";
        local $/;
        $tar->add_data($file, scalar <$in>, { mtime => 0, uid => 0, gid => 0, uname => 'root', gname => 'root', mode => 0644 });
    } else {
        $tar->add_files($file);
    }
}
$tar->write($out) or die $tar->error;
