package sarifschema

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name, log string
		wantErr   string // a part of the error, or "" for a valid log
	}{
		{"minimal", `{"version": "2.1.0", "runs": []}`, ""},
		{"a_result", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ahab"}}, "results": [
			{"ruleId": "bad_path", "level": "error", "message": {"text": "x"}}]}]}`, ""},
		{"wrong_version", `{"version": "2.0.0", "runs": []}`, "version"},
		{"unknown_level", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ahab"}}, "results": [
			{"ruleId": "bad_path", "level": "fatal", "message": {"text": "x"}}]}]}`, "level"},
		{"help_uri_not_a_uri", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ahab", "rules": [
			{"id": "bad_path", "helpUri": "docs/kinds.md#bad_path"}]}}}]}`, "helpUri"},
		{"unknown_member", `{"version": "2.1.0", "runs": [], "extra": 1}`, "extra"},
		{"not_json", `{`, "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate([]byte(tt.log))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("rejected a valid log: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("accepted an invalid log")
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}
