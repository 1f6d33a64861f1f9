/* The time of compilation, as many programs print in --version. */
const char build_time[] = __DATE__ " " __TIME__;
