//go:build !linux

package report

import "os"

// startWriteback is a no-op where the kernel has no sync_file_range.
func startWriteback(f *os.File, off, n int64) {}
