/* A small library: sums and scales. */
static int scale(int x, int by) { return x * by; }

int sum(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int scaled_sum(const int *v, int n, int by) { return scale(sum(v, n), by); }
