package report

import (
	"os"
	"syscall"
)

// startWriteback asks the kernel to start writing [off, off+n) of f to
// disk now, without waiting: a big report is then mostly on disk by the
// time it is synced, and the sync that makes it durable waits for the last
// few megabytes rather than for all of them. A failure only loses the head
// start; the sync still reports real errors.
func startWriteback(f *os.File, off, n int64) {
	const syncFileRangeWrite = 0x2 // SYNC_FILE_RANGE_WRITE
	syscall.SyncFileRange(int(f.Fd()), off, n, syncFileRangeWrite)
}
