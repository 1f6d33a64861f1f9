package check

import (
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

func execReq(key string) finding.Finding {
	return finding.Finding{Kind: finding.ExecutionRequirement, Action: testRef, Requirement: key}
}

func withExecInfo(a *action.Action, keys ...string) *action.Action {
	a.ExecutionInfo = keys
	return a
}

// TestExecReq covers §3.3; the names are the original's (§12 Execution
// requirements).
func TestExecReq(t *testing.T) {
	tests := []struct {
		name string
		a    *action.Action
		want []finding.Finding
	}{
		{
			name: "every_declared_non_hermetic_requirement_is_reported",
			a:    withExecInfo(act("tool"), "requires-network", "supports-workers", "no-sandbox", "local"),
			want: []finding.Finding{execReq("requires-network"), execReq("no-sandbox"), execReq("local")},
		},
		{
			name: "scheduling_advice_is_not_a_hermeticity_finding",
			a: withExecInfo(act("tool"), "supports-workers", "supports-path-mapping", "cpu:4",
				"resources:memory:512", "no-remote", "no-cache", "block-network", "requires-darwin", "unknown-tag"),
		},
		{
			name: "an_action_declaring_nothing_is_not_reported",
			a:    act("tool"),
		},
		{
			name: "keys_match_exactly",
			a:    withExecInfo(act("tool"), "Local", "no-sandbox ", "requires-network:true", "no-remote-exec", "localhost"),
		},
		{
			name: "each_occurrence_is_reported",
			a:    withExecInfo(act("tool"), "local", "local"),
			want: []finding.Finding{execReq("local"), execReq("local")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, ExecReq, tt.a, tt.want) })
	}
}
