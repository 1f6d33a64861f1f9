package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is what an attacker puts in a name or a value: a colour, a
// carriage return and a newline that would forge a second error line, and
// CSI in its one-character C1 form, U+009B.
const hostile = "x\x1b[31m\r\nError: forged\u009b2J"

// TestErrorsAreEscaped runs one error path per case, each with the hostile
// string where a user's name or value goes, and holds what Ahab prints on
// standard error to one rule: exactly one Error: line (error: for a usage
// mistake), nothing that could drive a terminal (no C0 control but the
// newline, no DEL, no C1 control), the hostile string shown escaped, and no
// line longer than a screenful or two however long the value.
func TestErrorsAreEscaped(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	missing := filepath.Join(dir, "missing"+hostile)
	dump := write("dump.json", `{"actions": [{"targetId": 1, "mnemonic": "Genrule", "arguments": ["/bin/true"]}], "targets": [{"id": 1, "label": "//a:b"}]}`)
	long := strings.Repeat("v", 100_000) + hostile
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"spec_file_missing", []string{"--repro-specs", missing, "--aquery-file", dump}},
		{"spec_file_key", []string{"--repro-specs", write("key.json", `{"programs": {"//a`+jsonEscape(hostile)+`": {"spec": {"reproducibility": "always"}, "bogus": 1}}}`), "--aquery-file", dump}},
		{"spec_file_value", []string{"--repro-specs", write("value.json", `{"programs": {"//a": {"spec": {"reproducibility": "`+jsonEscape(hostile)+`"}}}}`), "--aquery-file", dump}},
		{"spec_file_name", []string{"--repro-specs", write("spec"+hostile+".json", `{"programs": 1}`), "--aquery-file", dump}},
		{"exception_file_missing", []string{"--exceptions-json", missing, "--aquery-file", dump}},
		{"exception_file_kind", []string{"--exceptions-json", write("kind.json", `{"exceptions": [{"kind": "`+jsonEscape(hostile)+`", "reason": "r"}]}`), "--aquery-file", dump}},
		{"exception_file_field", []string{"--exceptions-json", write("field.json", `{"exceptions": [{"kind": "absolute_path", "reason": "r", "`+jsonEscape(hostile)+`": "y"}]}`), "--aquery-file", dump}},
		{"exception_set", []string{"--exceptions-json", "ahab:" + hostile, "--aquery-file", dump}},
		{"dump_missing", []string{"--aquery-file", missing}},
		{"dump_content", []string{"--aquery-file", write("bad"+hostile+".json", `{"actions": [{"targetId": 1, "`+jsonEscape(hostile)+`": 1}]}`)}},
		{"dump_truncated", []string{"--aquery-file", write("trunc"+hostile+".pb", "\x0a\xff")}},
		{"log_missing", []string{"diff", missing, missing}},
		{"log_content", []string{"diff", write("old"+hostile+".json", `{"commandArgs": 5}`), write("new.json", `{}`)}},
		{"report_missing", []string{"--explain-json", missing}},
		{"report_kind", []string{"--explain-json", write("report.json", `{"violations": [{"count": 1, "violation": {"kind": "`+jsonEscape(hostile)+`"}}]}`)}},
		{"report_field", []string{"--explain-json", write("field-report.json", `{"`+jsonEscape(hostile)+`": []}`)}},
		{"merge_report", []string{"merge", missing}},
		{"label_with_a_saved_dump", []string{"--aquery-file", dump, "//a" + hostile}},
		{"label_of_kinds", []string{"kinds", hostile}},
		{"label_of_trace", []string{"trace", "//a", "//b" + hostile}},
		{"flag_value_compat", []string{"--compat", hostile, "--aquery-file", dump}},
		{"flag_value_aquery_format", []string{"--aquery-format", hostile, "--aquery-file", dump}},
		{"flag_value_repeated", []string{"--aquery-file", dump, "--write-json", "a", "--write-json", hostile}},
		{"flag_value_output_dir", []string{"--aquery-file", dump, "--write-json", filepath.Join(missing, "out.json")}},
		{"flag_name", []string{"--" + hostile}},
		{"flag_value_long", []string{"--compat", long, "--aquery-file", dump}},
		{"file_name_long", []string{"--aquery-file", filepath.Join(dir, long)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, _, stderr := testSystem(nil)
			if code := Main(tc.args, sys); code == ExitOK {
				t.Fatalf("exit 0; stderr:\n%s", stderr)
			}
			checkSafe(t, stderr.String(), 1)
		})
	}
}

// TestWarningsAreEscaped: the warnings that name a file or an exception
// are held to the same rule, and appear whether or not standard error is
// a terminal.
func TestWarningsAreEscaped(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "dump"+hostile+".json")
	if err := os.WriteFile(dump, []byte(`{"actions": [{"targetId": 1, "mnemonic": "Genrule", "arguments": ["/bin/true"]}], "targets": [{"id": 1, "label": "//a:b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	exceptions := filepath.Join(dir, "exceptions.json")
	if err := os.WriteFile(exceptions, []byte(`{"exceptions": [{"kind": "bad_path", "reason": "`+jsonEscape(hostile)+`"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sys, _, stderr := testSystem(nil)
	Main([]string{"--aquery-file", dump, "--exceptions-json", exceptions, "--no-fail"}, sys)
	checkSafe(t, stderr.String(), 0)
	for _, want := range []string{"warning: no USER or HOSTNAME sentinel appears in ", "matched nothing"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

var c1 = regexp.MustCompile("[\u0080-\u009f]")

// checkSafe holds what Ahab wrote on standard error to the rule of
// TestErrorsAreEscaped, with errors Error: lines.
func checkSafe(t *testing.T, out string, errors int) {
	t.Helper()
	if i := strings.IndexFunc(out, func(r rune) bool { return r < ' ' && r != '\n' || r == 0x7f }); i >= 0 {
		t.Errorf("raw control %q at byte %d:\n%q", out[i], i, out)
	}
	if c1.MatchString(out) || !utf8.ValidString(out) {
		t.Errorf("a C1 control or invalid UTF-8:\n%q", out)
	}
	n := 0
	for line := range strings.Lines(out) {
		if strings.HasPrefix(strings.ToLower(line), "error:") {
			n++
		}
		if utf8.RuneCountInString(line) > 2000 {
			t.Errorf("a line of %d characters", utf8.RuneCountInString(line))
		}
	}
	if n != errors {
		t.Errorf("%d Error: lines, want %d:\n%s", n, errors, out)
	}
	if strings.Contains(out, "forged") && !strings.Contains(out, `\u{1b}[31m`) && !strings.Contains(out, `\u{9b}`) {
		t.Errorf("the hostile value is shown without its escapes:\n%s", out)
	}
}

// jsonEscape writes s inside a JSON string.
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < ' ':
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestJSONOnATerminalEscapesC1: --write-json - and --sarif - to a
// terminal write U+009B and the other C1 controls as \u escapes, which a
// terminal cannot obey; to a pipe, the JSON report keeps the original's
// bytes (§8.1).
func TestJSONOnATerminalEscapesC1(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "dump.json")
	if err := os.WriteFile(dump, []byte(`{"actions": [{"targetId": 1, "mnemonic": "Genrule", "arguments": ["/bin/true", "-I/opt/csi`+"\u009b"+`31m"]}], "targets": [{"id": 1, "label": "//a:b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--write-json", "--sarif"} {
		for _, terminal := range []bool{true, false} {
			sys, stdout, _ := testSystem(nil)
			sys.StdoutIsTerminal = terminal
			if code := Main([]string{"--aquery-file", dump, "--no-fail", flag, "-"}, sys); code != ExitOK {
				t.Fatalf("%s -: exit %d", flag, code)
			}
			raw := strings.Contains(stdout.String(), "\u009b")
			escaped := strings.Contains(stdout.String(), `\u009b`)
			// SARIF's messages are the text report's sentences, already
			// escaped; its JSON would hold the raw character elsewhere.
			if terminal && raw || terminal && flag == "--write-json" && !escaped || !terminal && flag == "--write-json" && (!raw || escaped) {
				t.Errorf("%s - (terminal %v): raw U+009B %v, escaped %v", flag, terminal, raw, escaped)
			}
		}
	}
}

// TestMismatchIsEscaped: what --expect-json prints when the findings
// differ (the sentences, the diff of the two JSON reports, the command that
// records a new baseline) shows a hostile value escaped, and the command
// still means the same to bash.
func TestMismatchIsEscaped(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "dump"+hostile+".json")
	if err := os.WriteFile(dump, []byte(`{"actions": [{"targetId": 1, "mnemonic": "Genrule", "arguments": ["/bin/true", "-I/opt/`+jsonEscape(hostile)+`"]}], "targets": [{"id": 1, "label": "//a:b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	baseline := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(baseline, []byte(`{"mode": "default", "violations": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sys, _, stderr := testSystem(nil)
	if code := Main([]string{"--aquery-file", dump, "--expect-json", baseline}, sys); code == ExitOK {
		t.Fatal("exit 0")
	}
	checkSafe(t, stderr.String(), 0)
	if want := `--aquery-file $'` + dir + `/dumpx\x1b[31m\x0d\x0aError: forged\xc2\x9b2J.json'`; !strings.Contains(stderr.String(), want) {
		t.Errorf("the refresh command lacks %s:\n%s", want, stderr)
	}
}
