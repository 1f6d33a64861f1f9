# listing.awk -v dir=DIR [-v sorted=1]: the text files of DIR, as ls
# gives them, unsorted unless sorted=1.
BEGIN {
    cmd = (sorted ? "ls " : "ls -f ") dir
    while ((cmd | getline name) > 0)
        if (name ~ /\.txt$/)
            print name
    close(cmd)
}
