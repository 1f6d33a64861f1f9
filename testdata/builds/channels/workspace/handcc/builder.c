/* Who built it, as the build passes it in. */
#ifndef BUILD_USER
#define BUILD_USER "unknown"
#endif
const char build_user[] = BUILD_USER;
