extern const char* build_ts;
#include <cstdio>
int main() { std::puts(build_ts); }
