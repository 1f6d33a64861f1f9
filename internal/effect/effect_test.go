package effect

import (
	"slices"
	"testing"
)

func TestAppendReachesSaysEachOnce(t *testing.T) {
	clock := Reach{Value: Clock, Text: "date", Because: "it prints the current time"}
	random := Reach{Value: Random, Text: "$RANDOM"}
	got := AppendReaches([]Reach{clock}, random, clock, random)
	if want := []Reach{clock, random}; !slices.Equal(got, want) {
		t.Errorf("AppendReaches = %v, want %v", got, want)
	}
	if got := AppendReaches(nil); got != nil {
		t.Errorf("AppendReaches(nil) = %v, want nil", got)
	}
}

// Every value has a name that parses back to it, a noun and a category.
func TestValuesRoundTrip(t *testing.T) {
	for _, v := range Values() {
		back, err := Parse(v.String())
		if err != nil || back != v {
			t.Errorf("Parse(%q) = %v, %v; want %v", v.String(), back, err, v)
		}
		if v.Noun() == "" {
			t.Errorf("%v has no noun", v)
		}
	}
	if _, err := Parse("sunspots"); err == nil {
		t.Error("Parse accepts a value nobody defined")
	}
}
