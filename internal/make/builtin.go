package make

// What GNU make 4.3 knows before it reads a makefile (make -p -f
// /dev/null), as far as builds use it: the variables of its built-in rules
// (-R leaves them out) and those rules (-r leaves them out).

var defaultVariables = map[string]string{
	"AR":            "ar",
	"ARFLAGS":       "rv",
	"AS":            "as",
	"CC":            "cc",
	"CXX":           "g++",
	"CPP":           "$(CC) -E",
	"LD":            "ld",
	"LEX":           "lex",
	"YACC":          "yacc",
	"RM":            "rm -f",
	"COMPILE.c":     "$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
	"COMPILE.cc":    "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
	"COMPILE.cpp":   "$(COMPILE.cc)",
	"COMPILE.C":     "$(COMPILE.cc)",
	"COMPILE.s":     "$(AS) $(ASFLAGS) $(TARGET_MACH)",
	"COMPILE.S":     "$(CC) $(ASFLAGS) $(CPPFLAGS) $(TARGET_MACH) -c",
	"LINK.c":        "$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
	"LINK.cc":       "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
	"LINK.cpp":      "$(LINK.cc)",
	"LINK.C":        "$(LINK.cc)",
	"LINK.o":        "$(CC) $(LDFLAGS) $(TARGET_ARCH)",
	"OUTPUT_OPTION": "-o $@",
}

// builtinRules are the implicit rules builds meet, after the makefile's
// own: target pattern, prerequisite pattern, recipe.
var builtinRules = []struct{ target, prereq, recipe string }{
	{"%.o", "%.c", "$(COMPILE.c) $(OUTPUT_OPTION) $<"},
	{"%.o", "%.cc", "$(COMPILE.cc) $(OUTPUT_OPTION) $<"},
	{"%.o", "%.cpp", "$(COMPILE.cpp) $(OUTPUT_OPTION) $<"},
	{"%.o", "%.C", "$(COMPILE.C) $(OUTPUT_OPTION) $<"},
	{"%.o", "%.s", "$(COMPILE.s) -o $@ $<"},
	{"%.o", "%.S", "$(COMPILE.S) -o $@ $<"},
	{"%", "%.o", "$(LINK.o) $^ $(LOADLIBES) $(LDLIBS) -o $@"},
	{"%", "%.c", "$(LINK.c) $^ $(LOADLIBES) $(LDLIBS) -o $@"},
	{"%", "%.cc", "$(LINK.cc) $^ $(LOADLIBES) $(LDLIBS) -o $@"},
	{"%", "%.cpp", "$(LINK.cpp) $^ $(LOADLIBES) $(LDLIBS) -o $@"},
	{"%", "%.sh", "cat $< >$@\nchmod a+x $@"},
}

// defaultSuffixes are .SUFFIXES before a makefile changes them, for its
// suffix rules (.c.o:).
var defaultSuffixes = []string{
	".out", ".a", ".ln", ".o", ".c", ".cc", ".C", ".cpp", ".p", ".f", ".F", ".m", ".r", ".y", ".l",
	".ym", ".yl", ".s", ".S", ".mod", ".sym", ".def", ".h", ".info", ".dvi", ".tex", ".texinfo",
	".texi", ".txinfo", ".w", ".ch", ".web", ".sh", ".elc", ".el",
}
