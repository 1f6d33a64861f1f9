//go:build !linux

package reprotest

// tmpfsRoom is 0: only Linux is known to have a tmpfs at /dev/shm.
func tmpfsRoom(string) uint64 { return 0 }
