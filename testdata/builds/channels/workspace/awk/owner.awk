# owner.awk [-v quiet=1]: a packaging header naming who built it; with quiet=1
# the name goes only to the build log.
BEGIN {
    "id -un" | getline user
    if (quiet) {
        print "packaged by " user > "/dev/stderr"
        print "Packager: build system"
    } else {
        print "Packager: " user
    }
}
