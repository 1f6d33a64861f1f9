package aquery

// interner shares the strings that repeat across actions (mnemonics, env and
// execution-info keys, common flags such as "-c" or "-o") so that callers
// that keep many actions keep one copy of each. It is bounded: when full it
// starts over, so memory stays flat on graphs with millions of distinct
// arguments.
type interner struct {
	m map[string]string
}

const (
	internMaxEntries = 1 << 14
	// internMaxValueLen is the longest argument or value interned; longer
	// ones (paths, whole shell commands) rarely repeat exactly.
	internMaxValueLen = 48
)

// intern returns b as a string, shared with earlier equal strings. It is for
// strings drawn from a small vocabulary (mnemonics, keys).
func (in *interner) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := in.m[string(b)]; ok { // this lookup does not allocate
		return s
	}
	if in.m == nil || len(in.m) >= internMaxEntries {
		in.m = make(map[string]string)
	}
	s := string(b)
	in.m[s] = s
	return s
}

// value returns b as a string, interned only when it is short.
func (in *interner) value(b []byte) string {
	if len(b) > internMaxValueLen {
		return string(b)
	}
	return in.intern(b)
}
