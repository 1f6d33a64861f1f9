// Package outdiff says what differs inside two versions of one build
// output, and why when the bytes name themselves: the last step of
// finding a nondeterministic action, after the execution logs have named
// the action and its output (package spawndiff).
//
// Diagnose reads both versions, within set bounds, and compares them as
// what they are: text line by line; tar, zip (and jar), ar, cpio and gzip
// member by member, metadata apart from contents; ELF objects section by
// section, with their strings, DWARF attributes and symbols; anything else
// from its first differing byte. Each difference gets a Class when its
// bytes name one: a path of one of the builds, a time close to one of
// them, a host, user or group name or id, permissions, another order,
// random-looking bytes or numbers (docs/diff.md has the vocabulary).
// Diagnose is a pure function of the two contents and the two Builds it
// is told about; DiagnoseFiles and Tree find and open the files.
package outdiff
