package bazel

import "testing"

func TestHoldSignals(t *testing.T) {
	if Guarding() {
		t.Fatal("Guarding before HoldSignals")
	}
	release := HoldSignals()
	if !Guarding() {
		t.Error("not Guarding while held")
	}
	release()
	release() // a second call changes nothing
	if Guarding() {
		t.Error("still Guarding after release")
	}
}
