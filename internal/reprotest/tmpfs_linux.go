package reprotest

import "syscall"

// tmpfsMagic is TMPFS_MAGIC of linux/magic.h.
const tmpfsMagic = 0x01021994

// tmpfsRoom says how many bytes are free for us in dir when it is a tmpfs,
// and 0 when it is not (or cannot be told).
func tmpfsRoom(dir string) uint64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Type != tmpfsMagic {
		return 0
	}
	return st.Bavail * uint64(st.Bsize)
}
