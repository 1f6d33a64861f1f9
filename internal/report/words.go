package report

import "strconv"

// Plural picks the word for n things: one or many. Every printer words
// its counts with it and Count.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and a noun that takes an s in the plural: "1 action", "3
// actions".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Plural(n, noun, noun+"s")
}
