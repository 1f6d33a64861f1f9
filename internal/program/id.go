// Package program names the program an action runs in a form that survives
// Bazel versions, module versions and generated repository names (§4).
package program

// OriginKind says where a program comes from.
type OriginKind uint8

// The order is the report order (§8.2): main < module < system.
const (
	Main OriginKind = iota
	Module
	System
)

// Origin is the repository part of an ID. Module is the module name (only
// for Module). Extension is meaningful only when HasExtension is set: the
// JSON distinguishes a null extension from an empty one (`@a+//x`).
type Origin struct {
	Kind         OriginKind
	Module       string
	Extension    string
	HasExtension bool
}

// ID identifies a program: its origin and its path within it. IDs are
// comparable and usable as map keys.
type ID struct {
	Origin Origin
	Path   string
}

// Compare orders IDs as the report does (§8.2): origin (main < module <
// system; main by extension, module by name then extension; a null
// extension sorts before any value), then path.
func Compare(a, b ID) int {
	if c := compareOrigin(a.Origin, b.Origin); c != 0 {
		return c
	}
	return cmpString(a.Path, b.Path)
}

func compareOrigin(a, b Origin) int {
	if a.Kind != b.Kind {
		if a.Kind < b.Kind {
			return -1
		}
		return 1
	}
	switch a.Kind {
	case Module:
		if c := cmpString(a.Module, b.Module); c != 0 {
			return c
		}
		return compareExtension(a, b)
	case Main:
		return compareExtension(a, b)
	}
	return 0
}

func compareExtension(a, b Origin) int {
	switch {
	case !a.HasExtension && !b.HasExtension:
		return 0
	case !a.HasExtension:
		return -1
	case !b.HasExtension:
		return 1
	}
	return cmpString(a.Extension, b.Extension)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
