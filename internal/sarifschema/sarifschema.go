// Package sarifschema is the OASIS SARIF 2.1.0 JSON schema, vendored, and
// a validator for tests: every SARIF log a test writes is checked against
// the standard rather than against what we believe it says.
//
// testdata/sarif-schema-2.1.0.json is Schemata/sarif-schema-2.1.0.json
// of the OASIS SARIF Technical Committee's repository
// (oasis-tcs/sarif-spec), the schema of SARIF Version 2.1.0 Errata 01,
// unchanged; testdata/README.md gives its copyright.
package sarifschema

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/sarif-schema-2.1.0.json
var schemaJSON []byte

// The schema's own id, under which it is registered, so that nothing is
// ever fetched.
const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	// The schema's "format"s (uri, uri-reference, date-time) are checked
	// too: GitHub rejects a helpUri that is not a URI.
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate checks that data is a SARIF 2.1.0 log the schema accepts.
func Validate(data []byte) error {
	schema, err := compiled()
	if err != nil {
		return fmt.Errorf("the vendored SARIF schema does not compile: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return schema.Validate(inst)
}
