# Turns a CSV with a header line into INSERT statements for TABLE.
BEGIN { FS = "," }
NR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; n = NF; next }
{
    vals = ""
    for (i = 1; i <= n; i++) vals = vals (i > 1 ? ", " : "") "'" $i "'"
    cols = ""
    for (i = 1; i <= n; i++) cols = cols (i > 1 ? ", " : "") col[i]
    printf "INSERT INTO %s (%s) VALUES (%s);\n", table, cols, vals
}
