#!/usr/bin/perl
# Summarises the tables the migrations create, for the schema review page.
use strict;
use warnings;

my (%columns, %origin);
for my $file (@ARGV) {
    open my $fh, '<', $file or die "$file: $!";
    while (my $line = <$fh>) {
        next unless $line =~ /^CREATE TABLE (\w+) \((.*)\);/;
        my ($table, $body) = ($1, $2);
        my @cols = map { (split ' ', $_)[0] } split /,\s*(?![^()]*\))/, $body;
        $columns{$table} = [grep { $_ ne 'PRIMARY' } @cols];
        ($origin{$table} = $file) =~ s{.*/}{};
    }
    close $fh;
}

print "Tables created by the migrations\n\n";
for my $table (keys %columns) {
    printf "%-18s %-22s %s\n", $table, $origin{$table}, join(', ', @{ $columns{$table} });
}
printf "\n%d tables\n", scalar keys %columns;
