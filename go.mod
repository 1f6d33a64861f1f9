module github.com/ahab-go/ahab

go 1.26.0

require (
	github.com/bazelbuild/buildtools v0.0.0-20260904073137-eaa4d125b423
	github.com/go-json-experiment/json v1.27.2
	github.com/klauspost/compress v1.20.4
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/pflag v1.1.0
	golang.org/x/term v0.48.0
	google.golang.org/protobuf v1.36.12
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/golang/protobuf v1.5.0 // indirect
	github.com/google/safeopen v0.0.0-20260327150837-43626d6f4685 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
