/* The version string, with when it was built. */
const char version[] = "channels 1.0, built " __DATE__ " " __TIME__;
