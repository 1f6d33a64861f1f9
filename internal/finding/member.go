package finding

import "cmp"

// Member is one member of a finding's JSON object after "kind" and
// "action" (§8.1). Each kind's row in the table lists its members in
// report order, and whatever walks a finding's fields walks that list:
// the JSON report, reading it back, the set's keys and Compare. A kind
// made of members that exist is one row of the table.
type Member uint8

const (
	MemberSource      Member = iota // Finding.Source, as its name
	MemberSentinel                  // Finding.Sentinel
	MemberSite                      // Finding.Site: location, then its own fields
	MemberActual                    // Finding.Actual
	MemberRequirement               // Finding.Requirement
	MemberPath                      // Finding.Path
	MemberProgram                   // Finding.Program
	MemberWrappers                  // Finding.Wrappers, outermost first
	MemberSynonym                   // Finding.Synonym, null when the program's own spec answered
	MemberUnmet                     // Finding.Unmet
	MemberVariation                 // Finding.Variation
	MemberCommand                   // Finding.Command, always there
	// MemberScriptCommand is Finding.Command too, for the kinds whose
	// findings have one only when the program is a command of a shell
	// script: it is written only then.
	MemberScriptCommand
	numMembers
)

var memberNames = [numMembers]string{
	MemberSource:        "source",
	MemberSentinel:      "sentinel",
	MemberSite:          "site",
	MemberActual:        "actual",
	MemberRequirement:   "requirement",
	MemberPath:          "path",
	MemberProgram:       "program",
	MemberWrappers:      "wrappers",
	MemberSynonym:       "synonym",
	MemberUnmet:         "unmet",
	MemberVariation:     "variation",
	MemberCommand:       "command",
	MemberScriptCommand: "command",
}

// String is the member's name in the JSON report.
func (m Member) String() string { return memberNames[m] }

// Optional says whether a saved report may leave the member out (§8.4): a
// synonym, which the original's reports may omit for null, and a command
// that only a script's command has.
func (m Member) Optional() bool { return m == MemberSynonym || m == MemberScriptCommand }

// Members returns every member a finding of kind k has, in report order.
func (k Kind) Members() []Member { return kinds[k].members }

// MemberNames lists the names of every member of any kind, each once, in
// the order of the Member constants: what a violation object may hold
// besides "kind", "action" and "evidence".
func MemberNames() []string {
	var names []string
	for m := range numMembers {
		if m != MemberScriptCommand { // the same name as MemberCommand
			names = append(names, m.String())
		}
	}
	return names
}

// MemberByName finds the member of kind k with the JSON name name.
func (k Kind) MemberByName(name string) (Member, bool) {
	for _, m := range kinds[k].members {
		if m.String() == name {
			return m, true
		}
	}
	return 0, false
}

// Evidence is the place in a tool or a source file that makes an output
// vary, as the analysis found it: `tools/gen.py:12: time.time() reaches
// the output`. A finding may carry any number; reports show them beside
// the finding (the text report on lines of their own, JSON as the
// "evidence" member, SARIF as related locations, and the causes of ahab
// diff and ahab trace). The findings report leaves it out under Ahab 0.2's
// judgement, whose reports are the original's; the analysis is to fill it
// in only under Ahab's own.
type Evidence struct {
	// File is the file's path, relative to the workspace root for a file
	// of the main repository (external/REPO/… for another one), or
	// absolute for a file of the machine.
	File string
	// Line is the 1-based line, or 0 when the evidence is about the whole
	// file.
	Line int
	// Text says what happens there, in a few words.
	Text string
}

// CompareEvidence orders evidence by file, line and text.
func CompareEvidence(a, b Evidence) int {
	return cmpChain(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Text, b.Text))
}
