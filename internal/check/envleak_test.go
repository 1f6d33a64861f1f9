package check

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

const (
	user = action.UserSentinel
	host = action.HostnameSentinel
)

func userLeak(site finding.Site) finding.Finding {
	return finding.Finding{Kind: finding.EnvironmentLeak, Action: testRef, Source: finding.User, Sentinel: user, Site: site}
}

func hostLeak(site finding.Site) finding.Finding {
	return finding.Finding{Kind: finding.EnvironmentLeak, Action: testRef, Source: finding.Hostname, Sentinel: host, Site: site}
}

func withEnv(a *action.Action, kv ...string) *action.Action {
	for i := 0; i+1 < len(kv); i += 2 {
		a.Env = append(a.Env, action.EnvVar{Key: kv[i], Value: kv[i+1]})
	}
	return a
}

// TestEnvLeak covers §3.1; the names are the original's (§12 Leaks).
func TestEnvLeak(t *testing.T) {
	define := "--define=builder=" + user + "-extra"
	tests := []struct {
		name string
		a    *action.Action
		want []finding.Finding
	}{
		{
			name: "user_sentinel_in_argument_is_a_violation",
			a:    act("/bin/bash", "-c", define),
			want: []finding.Finding{userLeak(argSite(define))},
		},
		{
			name: "user_sentinel_in_env_value_is_a_violation",
			a:    withEnv(act("tool"), "BUILDER", user),
			want: []finding.Finding{userLeak(envVarSite("BUILDER", user))},
		},
		{
			name: "sentinel_as_substring_still_trips",
			a:    withEnv(act("tool", "-DHOME=/home/"+user+"/src"), "HOME", "/home/"+user),
			want: []finding.Finding{
				userLeak(argSite("-DHOME=/home/" + user + "/src")),
				userLeak(envVarSite("HOME", "/home/"+user)),
			},
		},
		{
			name: "all_leaks_are_collected_not_just_the_first",
			a:    withEnv(act("tool", "-u", user, "-h", host, "--who="+user), "A", user, "B", host, "C", "x"+user),
			want: []finding.Finding{
				userLeak(argSite(user)),
				userLeak(argSite("--who=" + user)),
				hostLeak(argSite(host)),
				userLeak(envVarSite("A", user)),
				hostLeak(envVarSite("B", host)),
				userLeak(envVarSite("C", "x"+user)),
			},
		},
		{
			name: "sentinel_only_in_env_key_is_not_a_leak",
			a:    withEnv(act("tool"), user, "value", host, ""),
		},
		{
			name: "each_sentinel_is_checked_independently",
			a:    withEnv(act("tool", user+"@"+host), "ID", host+"/"+user),
			want: []finding.Finding{
				userLeak(argSite(user + "@" + host)),
				hostLeak(argSite(user + "@" + host)),
				userLeak(envVarSite("ID", host+"/"+user)),
				hostLeak(envVarSite("ID", host+"/"+user)),
			},
		},
		{
			name: "a_sentinel_twice_in_one_string_is_one_leak",
			a:    withEnv(act("tool", user+":"+user), "U", user+user),
			want: []finding.Finding{
				userLeak(argSite(user + ":" + user)),
				userLeak(envVarSite("U", user+user)),
			},
		},
		{
			name: "a_sentinel_in_the_program_path_is_still_a_leak",
			a:    act("/home/"+user+"/toolchains/bin/gcc", "-c", "a.c"),
			want: []finding.Finding{userLeak(argSite("/home/" + user + "/toolchains/bin/gcc"))},
		},
		{
			name: "sentinels_leaking_into_a_param_file_are_found",
			a:    withParamFile(act("tool", "@out/foo.params"), "out/foo.params", "-O2", "--host="+host),
			want: []finding.Finding{hostLeak(paramSite("out/foo.params", "--host="+host))},
		},
		{
			name: "unreferenced_param_files_are_still_scanned",
			a:    withParamFile(act("tool"), "out/m.cppmap", `module "`+user+`" {`),
			want: []finding.Finding{userLeak(paramSite("out/m.cppmap", `module "`+user+`" {`))},
		},
		{
			name: "a_param_file_is_scanned_once_per_action",
			a:    withParamFile(act("tool", "@out/foo.params", "--flagfile=out/foo.params"), "out/foo.params", user),
			want: []finding.Finding{userLeak(paramSite("out/foo.params", user))},
		},
		{
			name: "a_truncated_sentinel_is_not_a_leak",
			a:    withEnv(act("tool", user[:len(user)-1], "ahab-sentinel-user"), "H", host[1:]),
		},
		{
			name: "an_action_without_anything_is_not_reported",
			a:    &action.Action{TargetID: tid("//test:t1")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, EnvLeak, tt.a, tt.want) })
	}
}

func TestSentinelsShareThePrefixTheCheckLooksFor(t *testing.T) {
	for _, s := range sentinels {
		if !strings.HasPrefix(s.value, sentinelPrefix) {
			t.Errorf("sentinel %q does not start with %q, so envleak would never look for it", s.value, sentinelPrefix)
		}
	}
}
